// causa: expect=no-bug
// causa: check=verified
// causa: stdout=strspn: 3 5 0
// causa: stdout=strcspn: 9 5 0
// causa: stdout=strpbrk: 123, def 1
// causa: stdout=strtok: [alpha] [beta] [gamma] then 1
// causa: stdout=strtok empty: 1
// causa: stdout=strtok_r: k1->v1 k2->v2 k3->(none)
// causa: stdout=strsep: [a] [] [b] [c] rest=1
// causa: stdout=strcasecmp: 1 1 1
// causa: stdout=strcasecmp value: -1 21
// causa: stdout=strncasecmp: 1 1 1
// String scanning and tokenizing: strspn, strcspn, strpbrk, strtok (with empty
// fields and a string of delimiters only), nested strtok_r, strsep (which keeps
// empty fields), and the case-insensitive comparisons, whose value is the
// difference of the first differing lowered bytes as in glibc. The expected
// lines are the output of the same program built with gcc against glibc.
#include <stdio.h>
#include <string.h>
#include <strings.h>

int main(void) {
    const char *s = "  \tabc123, def";
    printf("strspn: %zu %zu %zu\n", strspn(s, " \t"), strspn("abcabx", "abc"), strspn("xyz", ""));
    printf("strcspn: %zu %zu %zu\n", strcspn(s, ","), strcspn("hello", "xyz"), strcspn("", "a"));
    const char *p = strpbrk(s, "0123456789");
    printf("strpbrk: %s %d\n", p, strpbrk(s, "!?") == NULL);

    char csv[] = ",,alpha,beta;;gamma,";
    printf("strtok:");
    for (char *tok = strtok(csv, ",;"); tok != NULL; tok = strtok(NULL, ",;"))
        printf(" [%s]", tok);
    printf(" then %d\n", strtok(NULL, ",;") == NULL);

    char empty[] = ";;;";
    printf("strtok empty: %d\n", strtok(empty, ";") == NULL);

    char line[] = "k1=v1&k2=v2&k3";
    char *outer_save, *inner_save;
    printf("strtok_r:");
    for (char *pair = strtok_r(line, "&", &outer_save); pair; pair = strtok_r(NULL, "&", &outer_save)) {
        char *key = strtok_r(pair, "=", &inner_save);
        char *val = strtok_r(NULL, "=", &inner_save);
        printf(" %s->%s", key, val ? val : "(none)");
    }
    printf("\n");

    char fields[] = "a,,b,c";
    char *rest = fields;
    printf("strsep:");
    char *f;
    while ((f = strsep(&rest, ",")) != NULL)
        printf(" [%s]", f);
    printf(" rest=%d\n", rest == NULL);

    printf("strcasecmp: %d %d %d\n", strcasecmp("Hello", "hELLO") == 0, strcasecmp("apple", "Banana") < 0,
           strcasecmp("Zeta", "alpha") > 0);
    printf("strcasecmp value: %d %d\n", strcasecmp("abc", "abd"), strcasecmp("ABX", "abc"));
    printf("strncasecmp: %d %d %d\n", strncasecmp("HelloWorld", "helloTHERE", 5) == 0,
           strncasecmp("abc", "ABD", 3) < 0, strncasecmp("x", "y", 0) == 0);
    return 0;
}
