//! The frontier plot of one traversal, like Fig. 3 of Merrill, Garland and Grimshaw ("Scalable
//! GPU Graph Traversal", PPoPP 2012): frontier vertices and edges inspected per BFS level on a
//! log scale, and the time of each level on a second axis. SVG only (plotters' SVG backend needs
//! no font or image libraries).

use std::path::Path;

use plotters::prelude::*;

use crate::bench::bfs::LevelRecord;
use crate::error::{Error, Result};

/// Draws `levels` to `path`, which must end in `.svg`, with `title` above the plot. The SVG is
/// drawn in memory and written by [`crate::output::write_output`] (whole or not at all).
pub fn plot_levels(levels: &[LevelRecord], title: &str, path: &Path) -> Result<()> {
    check_plot_path(path)?;
    if levels.is_empty() {
        return Err(Error::InvalidArgument("no BFS levels to plot".into()));
    }
    let mut svg = String::new();
    draw(levels, title, &mut svg).map_err(|problem| Error::Format { path: path.to_path_buf(), problem })?;
    crate::output::write_output(path, |out| out.write_all(svg.as_bytes()))
}

/// Refuses plot files other than `.svg`, with the reason.
pub fn check_plot_path(path: &Path) -> Result<()> {
    match path.extension().and_then(|e| e.to_str()) {
        Some(ext) if ext.eq_ignore_ascii_case("svg") => Ok(()),
        _ => Err(Error::InvalidArgument(format!(
            "{}: plots are written as SVG only; give a file name ending in .svg \
             (PNG would need a font rasterizer and image encoder, which warpath does not build)",
            path.display()
        ))),
    }
}

/// A count series of the left axis: legend label, color, and the count it plots.
type Series = (&'static str, RGBColor, fn(&LevelRecord) -> u64);

fn draw(levels: &[LevelRecord], title: &str, svg: &mut String) -> std::result::Result<(), String> {
    let text = |e: DrawingAreaErrorKind<std::io::Error>| e.to_string();
    let last_level = levels.iter().map(|l| l.level).max().unwrap_or(0).max(1) as f64;
    let most = levels.iter().map(|l| l.frontier.max(l.edges_inspected)).max().unwrap_or(1).max(10) as f64;
    let longest = levels.iter().map(|l| l.time_ms).fold(0.0, f64::max);
    let time_top = if longest > 0.0 { longest * 1.1 } else { 1.0 };

    let root = SVGBackend::with_string(svg, (960, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(text)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(80)
        .right_y_label_area_size(80)
        .build_cartesian_2d(0f64..last_level, (1f64..most * 2.0).log_scale())
        .map_err(text)?
        .set_secondary_coord(0f64..last_level, 0f64..time_top);
    chart
        .configure_mesh()
        .x_desc("BFS level")
        .y_desc("vertices / edges (log scale)")
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(text)?;
    chart.configure_secondary_axes().y_desc("time per level (ms)").draw().map_err(text)?;

    let point = |l: &LevelRecord, y: u64| (l.level as f64, y.max(1) as f64);
    let series: [Series; 2] =
        [("frontier vertices", BLUE, |l| l.frontier), ("edges inspected", GREEN, |l| l.edges_inspected)];
    for (label, color, value) in series {
        chart
            .draw_series(LineSeries::new(levels.iter().map(|l| point(l, value(l))), color.stroke_width(2)))
            .map_err(text)?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    chart
        .draw_secondary_series(LineSeries::new(levels.iter().map(|l| (l.level as f64, l.time_ms)), RED.stroke_width(2)))
        .map_err(text)?
        .label("time (ms, right axis)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(text)?;
    root.present().map_err(text)
}
