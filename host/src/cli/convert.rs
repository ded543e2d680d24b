use warpath::graph::CompressedGraph;
use warpath::{Error, Result};

use super::args::ConvertArgs;

pub fn run(args: &ConvertArgs) -> Result<()> {
    let format = warpath::formats::Format::from_path(&args.output).ok();
    let text = match format {
        Some(warpath::formats::Format::Wgr) => false,
        Some(warpath::formats::Format::EdgeList | warpath::formats::Format::WeightedEdgeList) if !args.compress => true,
        _ => {
            return Err(Error::InvalidArgument(format!(
                "{}: convert writes .wgr (warpath's binary format, --compress for delta-varint lists) or a text \
                 edge list (.el, .txt, .wel), each optionally .gz",
                args.output.display()
            )))
        }
    };
    super::check_output(&args.output, &args.input)?;
    // The .wgr writers write to a temporary file and rename it into place when complete.
    let graph = super::load_weighted(&args.input, &args.weights, None)?;
    if args.compress && graph.is_weighted() {
        return Err(Error::InvalidArgument(format!(
            "{}: compressed .wgr files hold no weights; add --ignore-weights to store the edges alone",
            args.input.graph
        )));
    }
    if text {
        // An unweighted graph's .wel is refused by the writer; the error names --weights.
        warpath::formats::write_edge_list(&graph, &args.output)?;
        let once = if graph.is_undirected() { "; each undirected edge once: read it with --undirected" } else { "" };
        println!(
            "wrote {} ({} vertices, {} edges{once})",
            args.output.display(),
            graph.num_vertices(),
            graph.num_edges()
        );
        return Ok(());
    }
    let compressed = args.compress.then(|| CompressedGraph::encode(&graph));
    match &compressed {
        Some(compressed) => warpath::formats::wgr::write_compressed(compressed, &args.output)?,
        None => warpath::formats::write_wgr(&graph, &args.output)?,
    }
    let weights = graph.weight_range().map_or(String::new(), |range| format!(", {range}"));
    println!(
        "wrote {} ({} vertices, {} edges{weights})",
        args.output.display(),
        graph.num_vertices(),
        graph.num_edges()
    );
    if let Some(compressed) = compressed {
        println!(
            "compressed: {} bytes as delta-varint, plain CSR: {} bytes, ratio {:.2}",
            compressed.compressed_bytes(),
            compressed.raw_bytes(),
            compressed.ratio()
        );
    }
    Ok(())
}
