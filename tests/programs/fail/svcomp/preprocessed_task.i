// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=24
// An SV-COMP style preprocessed (.i) task: no #include, the declarations spelled
// out. Two threads increment without synchronisation; reach_error is reachable.
typedef unsigned long int pthread_t;
union pthread_attr_t { char __size[56]; long int __align; };
typedef union pthread_attr_t pthread_attr_t;
extern int pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern void abort(void);
void reach_error() {}
int x = 0;
void *inc(void *arg) {
  int t = x;
  x = t + 1;
  return 0;
}
int main() {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0); pthread_join(b, 0);
  if (x != 2) { reach_error(); abort(); }
  return 0;
}
