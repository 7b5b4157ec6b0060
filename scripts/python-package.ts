// The Python client as a package the app serves: clients/python (quiltboard.py, its build backend
// of the standard library alone and pyproject.toml) packed into a source distribution,
// quiltboard-python.tar.gz, with the app's version, so `pip install https://HOST/quiltboard-python.tar.gz`
// installs it from the app alone (no PyPI: the backend needs nothing). Written here, as a POSIX tar
// archive compressed with gzip, so that packing needs no Python where the app is built.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const ROOT = process.cwd();
const SOURCE = path.join(ROOT, "clients", "python");
/** The tarball's name where the app serves it (its public directory). */
export const PYTHON_TARBALL = "quiltboard-python.tar.gz";
/** Every entry's modification time: 1980-01-01, the earliest a wheel's zip can hold. */
const MTIME = 315532800;

/** One file of a ustar archive: its 512-byte header, then its bytes padded to a multiple of 512. */
function tarEntry(name: string, data: Buffer): Buffer {
  const header = Buffer.alloc(512);
  const field = (value: string, offset: number, length: number) => header.write(value, offset, length, "ascii");
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, "0");
  if (Buffer.byteLength(name) > 100) throw new Error(`${name}: a name of more than 100 bytes`);
  field(name, 0, 100);
  field(octal(0o644, 8), 100, 8);
  field(octal(0, 8), 108, 8);
  field(octal(0, 8), 116, 8);
  field(octal(data.length, 12), 124, 12);
  field(octal(MTIME, 12), 136, 12);
  field("        ", 148, 8); // the checksum counts its own field as spaces
  field("0", 156, 1);
  field("ustar\u000000", 257, 8);
  const checksum = header.reduce((sum, byte) => sum + byte, 0);
  field(`${octal(checksum, 7)}\u0000`, 148, 8);
  return Buffer.concat([header, data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

/** The source distribution's bytes: quiltboard-VERSION/ with PKG-INFO, pyproject.toml, the backend and the module at `version`. */
export function pythonSdist(version: string): Buffer {
  const source = readFileSync(path.join(SOURCE, "quiltboard.py"), "utf8");
  if (!/^__version__ = "[^"]*"$/m.test(source)) throw new Error("clients/python/quiltboard.py names no __version__");
  const files: [string, Buffer][] = [
    ["PKG-INFO", Buffer.from(`Metadata-Version: 2.1\nName: quiltboard\nVersion: ${version}\n`)],
    ["pyproject.toml", readFileSync(path.join(SOURCE, "pyproject.toml"))],
    ["quiltboard_build.py", readFileSync(path.join(SOURCE, "quiltboard_build.py"))],
    ["quiltboard.py", Buffer.from(source.replace(/^__version__ = "[^"]*"$/m, `__version__ = "${version}"`))],
  ];
  const tar = Buffer.concat([...files.map(([name, data]) => tarEntry(`quiltboard-${version}/${name}`, data)), Buffer.alloc(1024)]);
  return gzipSync(tar, { level: 9 });
}

/** Writes quiltboard-python.tar.gz into `directory` (the app's public directory) unless it is there already, the same; its path. */
export function packPython(directory: string): string {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  const target = path.join(directory, PYTHON_TARBALL);
  const sdist = pythonSdist(version);
  if (existsSync(target) && readFileSync(target).equals(sdist)) return target;
  mkdirSync(directory, { recursive: true });
  writeFileSync(target, sdist);
  return target;
}
