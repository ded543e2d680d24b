use warpath::gpu::ptxas::{assemble, find_ptxas, ARCHITECTURES};
use warpath::Result;

pub fn run() -> Result<()> {
    let ptxas = find_ptxas()?;
    println!("ptxas: {}", ptxas.display());
    println!(
        "{:<26} {:>6} {:>9} {:>10} {:>11} {:>12} {:>11}",
        "kernel", "arch", "registers", "shared (B)", "stack (B)", "spill st (B)", "spill ld (B)"
    );
    for arch in ARCHITECTURES {
        for k in assemble(&ptxas, arch)? {
            println!(
                "{:<26} {:>6} {:>9} {:>10} {:>11} {:>12} {:>11}",
                k.kernel, k.arch, k.registers, k.shared_bytes, k.stack_bytes, k.spill_store_bytes, k.spill_load_bytes
            );
        }
    }
    Ok(())
}
