use std::path::PathBuf;

use warpath::bench::suite::{run_suite_with_ranks, SuiteOptions, SuiteRanks, SuiteStage};
use warpath::bench::RankSet;
use warpath::engine::Backend;
use warpath::{Error, Result};

use super::args::SuiteArgs;

pub fn run(args: &SuiteArgs) -> Result<()> {
    // A bad kernel name or rank request is refused before any graph is loaded.
    let gpu_kernels = args.kernels().map_err(Error::InvalidArgument)?;
    let backend = if args.no_gpu { Backend::Cpu } else { Backend::Auto };
    let rank_sets =
        if args.multi.requested() { Some(super::multi::rank_sets(&args.multi, backend, "suite")?) } else { None };
    let ranks = rank_sets.as_ref().map(|sets| SuiteRanks {
        baseline: sets.baseline.as_ref(),
        sets: sets.sets.iter().map(|s| s.as_ref()).collect::<Vec<&dyn RankSet>>(),
        traversal: super::multi::traversal_options(false, None, &Default::default()),
        backend: if args.multi.gpus.is_some() { "gpu" } else { "cpu" },
    });
    let datasets = if args.no_datasets {
        None
    } else if let Some(dir) = &args.datasets {
        Some(dir.clone())
    } else if args.quick {
        None
    } else {
        let dir =
            std::env::var_os("WARPATH_DATASETS").map(PathBuf::from).unwrap_or_else(|| "../shared/datasets".into());
        if dir.is_dir() {
            Some(dir)
        } else {
            eprintln!(
                "warpath: warning: no datasets folder at {} (give --datasets DIR); running without",
                dir.display()
            );
            None
        }
    };
    let options = SuiteOptions {
        quick: args.quick,
        roots: args.roots,
        seed: args.seed,
        datasets,
        only: args.only.clone(),
        gpu: !args.no_gpu,
        gpu_kernels,
        cc: !args.no_cc,
        sssp: !args.no_sssp,
        many: !args.no_many,
    };

    let mut bar = super::progress::bar(0, "");
    let result = run_suite_with_ranks(&options, ranks.as_ref(), &mut |stage| match stage {
        SuiteStage::Loading { index, total, graph } => {
            bar.finish_and_clear();
            bar = super::progress::spinner(&format!("[{}/{total}] loading {graph}", index + 1));
        }
        SuiteStage::Running { graph, backend, roots } => {
            bar.finish_and_clear();
            bar = super::progress::bar(roots as u64, &format!("{graph} on {backend}"));
        }
        SuiteStage::Root { done } => bar.set_position(done as u64),
    });
    bar.finish_and_clear();
    let result = result?;

    for row in &result.rows {
        let gpu = if row.gpu.is_empty() {
            "GPU GTEPS n/a".to_string()
        } else {
            let best = row.best_gpu().and_then(|b| b.flags.gpu_kernel.clone()).unwrap_or_default();
            let rates: Vec<String> = row
                .gpu
                .iter()
                .map(|g| format!("{} {:.3}", g.flags.gpu_kernel.as_deref().unwrap_or("gpu"), g.summary.hmean_gteps))
                .collect();
            format!("GPU GTEPS {} (fastest: {best})", rates.join(", "))
        };
        println!("{}: {gpu}, CPU GTEPS {:.3}", row.graph, row.cpu.summary.hmean_gteps);
    }
    for row in &result.cc_rows {
        let gpu = match &row.gpu {
            Some(gpu) => format!("GPU median {:.3} ms", gpu.summary.time_ms.median),
            None => "GPU n/a".into(),
        };
        println!(
            "{}: CC {} components, {gpu}, CPU median {:.3} ms",
            row.graph, row.cpu.summary.details.components, row.cpu.summary.time_ms.median
        );
    }
    for row in &result.many_rows {
        let ms = |report: Option<f64>| report.map_or("n/a".to_string(), |t| format!("{t:.3} ms"));
        if row.closeness_cpu.is_some() {
            let (gpu, cpu) = (&row.closeness_gpu, &row.closeness_cpu);
            let (gpu, cpu) =
                (gpu.as_ref().map(|r| r.summary.time_ms.median), cpu.as_ref().map(|r| r.summary.time_ms.median));
            println!("{} (closeness): GPU median {}, CPU median {}", row.graph, ms(gpu), ms(cpu));
        }
        if let Some(cpu) = &row.scc_cpu {
            let gpu = row.scc_gpu.as_ref().map(|r| r.summary.time_ms.median);
            println!(
                "{} (scc): {} components, GPU median {}, CPU median {}",
                row.graph,
                cpu.summary.details.components,
                ms(gpu),
                ms(Some(cpu.summary.time_ms.median))
            );
        }
    }
    for row in &result.sssp_rows {
        let gpu = row.gpu.as_ref().map_or_else(|| "n/a".to_string(), |g| format!("{:.3}", g.summary.hmean_gteps));
        println!("{} (sssp): GPU GTEPS {gpu}, CPU GTEPS {:.3}", row.graph, row.cpu.summary.hmean_gteps);
    }
    for row in &result.partitioned_rows {
        let rates: Vec<String> = row
            .reports
            .iter()
            .map(|r| {
                let speedup = r.payload.scaling.map_or(String::new(), |s| format!(", {:.2}x", s.speedup));
                format!("{} ranks {:.3}{speedup}", r.payload.ranks, r.summary.hmean_gteps)
            })
            .collect();
        println!("{} (partitioned): GTEPS {}", row.graph, rates.join("; "));
    }
    if let Some(why) = result.rows.iter().find_map(|r| r.gpu_missing.as_ref()).filter(|_| !args.no_gpu) {
        eprintln!("warpath: warning: the GPU did not run: {why}");
    }
    let (md, json) = result.write(&args.out_dir)?;
    println!("table: {}", md.display());
    println!("json: {}", json.display());
    if !result.cc_rows.is_empty() {
        println!("json (cc): {}", json.with_file_name(warpath::bench::suite::CC_JSON).display());
    }
    if !result.many_rows.is_empty() {
        println!("json (closeness, scc): {}", json.with_file_name(warpath::bench::suite::MANY_JSON).display());
    }
    if !result.partitioned_rows.is_empty() {
        println!("json (partitioned): {}", json.with_file_name(warpath::bench::suite::PARTITIONED_JSON).display());
    }
    Ok(())
}
