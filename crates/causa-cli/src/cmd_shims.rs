//! `causa shims`: every modelled external function, grouped by library.

use crate::args::ShimsArgs;
use std::collections::BTreeMap;

pub fn run(args: &ShimsArgs) -> i32 {
    let mut by_lib: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for s in &causa_interp::shims::registry().shims {
        by_lib.entry(s.lib).or_default().push(s.name);
    }
    for names in by_lib.values_mut() {
        names.sort_unstable();
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({"schema": 1, "command": "shims", "libraries": by_lib}))
                .unwrap_or_default()
        );
        return 0;
    }
    let total: usize = by_lib.values().map(Vec::len).sum();
    println!("causa models {total} external functions:");
    for (lib, names) in &by_lib {
        println!("\n{lib} ({}):", names.len());
        let mut line = String::from(" ");
        for n in names {
            if line.len() + n.len() + 1 > 100 {
                println!("{line}");
                line = String::from(" ");
            }
            line.push(' ');
            line.push_str(n);
        }
        println!("{line}");
    }
    println!("\nLLVM intrinsics are matched without their type suffixes (llvm.memcpy.p0i8.p0i8.i64 is llvm.memcpy),\nand every __VERIFIER_nondet_<type> is an input of its return type.");
    0
}
