//! `oaq icons`: the web app's icons, painted by the game's art generator and written as PNG
//! (the files in `web/icons` are its output; a test checks they still are).

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use o_an_quan::art;

use crate::Failure;

#[derive(clap::Args)]
pub struct Args {
    /// The folder to write the icons into (made if missing).
    #[arg(long)]
    out: PathBuf,
}

/// Every icon the page and its manifest name: file, size, maskable. The page's own icon (the
/// tab's) is the small one: it is fetched while the game loads.
pub const ICONS: [(&str, u32, bool); 5] = [
    ("icon-32.png", 32, false),
    ("icon-192.png", 192, false),
    ("icon-512.png", 512, false),
    ("icon-maskable-512.png", 512, true),
    ("apple-touch-icon.png", 180, true),
];

pub fn run(args: Args) -> Result<(), Failure> {
    std::fs::create_dir_all(&args.out)
        .map_err(|e| Failure(format!("{}: {e}", args.out.display())))?;
    for (name, size, maskable) in ICONS {
        let path = args.out.join(name);
        write_png(&path, size, &art::icon(size, maskable))
            .map_err(|e| Failure(format!("{}: {e}", path.display())))?;
        println!("{}", path.display());
    }
    Ok(())
}

fn write_png(path: &Path, size: u32, rgba: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
    let mut encoder = png::Encoder::new(BufWriter::new(File::create(path)?), size, size);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgba)?;
    writer.finish()?;
    Ok(())
}
