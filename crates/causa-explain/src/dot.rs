//! `--dot`: the projection as a Graphviz graph (Symbiosis §4.3): one
//! cluster per schedule, one node per projected event labelled with its
//! operation and source line, schedule edges in each schedule's order,
//! data-flow edges that differ in red (failing) and green (alternate), and a
//! dashed box around the events that should run atomically.

use crate::{Explanation, Run};
use causa_symbolic::EventRef;
use std::fmt::Write;

pub fn render(e: &Explanation) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "digraph dsp {{\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\", fontsize=10];");
    let d = &e.dsp;
    for (run, name, order) in [(Run::Failing, "failing", &d.events), (Run::Alternate, "alternate", &d.alternate_events)]
    {
        let p = &name[..1];
        let _ = writeln!(o, "  subgraph cluster_{name} {{\n    label=\"{name} schedule\";");
        for r in order.iter() {
            let v = e.value(*r, run).map(|v| format!(" = {v}")).unwrap_or_default();
            let label = format!("{}: {}{v}\\n{}", e.threads[r.0], e.op_text(*r), e.line(*r).unwrap_or_default());
            let _ = writeln!(o, "    {} [label=\"{}\"];", node(p, r), escape(&label));
        }
        for w in order.windows(2) {
            let _ = writeln!(o, "    {} -> {} [color=gray];", node(p, &w[0]), node(p, &w[1]));
        }
        if run == Run::Alternate {
            for (i, a) in d.atomic.iter().enumerate() {
                let nodes: Vec<String> = a.events.iter().map(|r| node(p, r)).collect();
                let _ = writeln!(
                    o,
                    "    subgraph cluster_atomic{i} {{ style=dashed; label=\"should run atomically\"; {}; }}",
                    nodes.join("; ")
                );
            }
        }
        let (flows, color) =
            if run == Run::Failing { (&d.failing_only, "red") } else { (&d.alternate_only, "darkgreen") };
        for f in flows {
            if let Some(w) = f.write {
                let _ = writeln!(
                    o,
                    "    {} -> {} [color={color}, style=bold, constraint=false];",
                    node(p, &w),
                    node(p, &f.read)
                );
            }
        }
        let _ = writeln!(o, "  }}");
    }
    let _ = writeln!(o, "}}");
    o
}

fn node(prefix: &str, r: &EventRef) -> String {
    format!("{prefix}_{}_{}", r.0, r.1)
}

fn escape(s: &str) -> String {
    s.replace('"', "\\\"")
}
