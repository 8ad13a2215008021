//! The legend under a table of events: where each heap block it names
//! comes from. Events name a block by the thread that allocated it and
//! its order (`heap#1.refs`, `heap@0.1#2`), which the program's text never
//! says; the legend gives the allocating call, its place and its line.

use causa_core::event::{EventRecord, HeapBlock};
use causa_core::SourceLoc;

/// Whether `text` names `block` (`heap#1` in `heap#1.refs` or `&heap#1`,
/// not in `heap#12`).
fn names(text: &str, block: &str) -> bool {
    text.match_indices(block).any(|(i, _)| !text[i + block.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// The blocks among `blocks` that `texts` name, in allocation order.
pub fn named<'a>(blocks: &'a [HeapBlock], texts: &[&str]) -> Vec<&'a HeapBlock> {
    blocks.iter().filter(|b| texts.iter().any(|t| names(t, &b.name))).collect()
}

/// The texts a record shows: its object and its values.
pub fn record_texts(r: &EventRecord) -> impl Iterator<Item = &str> {
    [&r.object, &r.value, &r.new_value].into_iter().filter_map(|x| x.as_deref())
}

/// `heap blocks:` and a line per block: its name, the allocating call
/// and place, and the source line (through `source_line`). Empty when
/// there is no block.
pub fn render_heap_legend(blocks: &[&HeapBlock], source_line: &dyn Fn(&SourceLoc) -> Option<String>) -> String {
    if blocks.is_empty() {
        return String::new();
    }
    let width = blocks.iter().map(|b| b.name.chars().count()).max().unwrap_or(0);
    let mut out = String::from("heap blocks (named by the allocating thread and their order in it):\n");
    for b in blocks {
        let place = match &b.site {
            Some(l) => format!("{} at {}:{}", b.by, l.file.rsplit('/').next().unwrap_or(&l.file), l.line),
            // (`stderr`'s `FILE`, `errno`, `argv`: the runtime's own.)
            None => format!("allocated by the C library for `{}`", b.by),
        };
        let line = b.site.as_ref().and_then(source_line).map(|s| s.trim().to_string()).unwrap_or_default();
        let sep = if line.is_empty() { "" } else { "  " };
        out.push_str(format!("  {:<width$}  {place}{sep}{line}", b.name).trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(name: &str, line: u32) -> HeapBlock {
        HeapBlock {
            name: name.into(),
            by: "malloc".into(),
            site: Some(SourceLoc { file: "/src/r.c".into(), line, column: 5 }),
        }
    }

    #[test]
    fn a_block_is_named_only_by_its_whole_name() {
        let blocks = [block("heap#1", 9), block("heap#12", 10), block("heap@0.1#1", 11)];
        let got: Vec<&str> = named(&blocks, &["heap#12.next", "&heap#1"]).iter().map(|b| b.name.as_str()).collect();
        assert_eq!(got, ["heap#1", "heap#12"]);
        assert!(named(&blocks, &["x"]).is_empty());
        assert_eq!(named(&blocks, &["heap@0.1#1.refs"]).len(), 1);
    }

    #[test]
    fn the_legend_gives_the_call_its_place_and_its_line() {
        let mut blocks = vec![block("heap#1", 9), block("heap@0.1#2", 12)];
        blocks.push(HeapBlock { name: "heap#3".into(), by: "stderr".into(), site: None });
        let src = |l: &SourceLoc| (l.line == 9).then(|| "    p = malloc(sizeof *p);".to_string());
        let got = render_heap_legend(&blocks.iter().collect::<Vec<_>>(), &src);
        assert_eq!(
            got,
            "heap blocks (named by the allocating thread and their order in it):\n  heap#1      malloc at r.c:9  p = malloc(sizeof *p);\n  heap@0.1#2  malloc at r.c:12\n  heap#3      allocated by the C library for `stderr`\n"
        );
        assert_eq!(render_heap_legend(&[], &src), "");
    }
}
