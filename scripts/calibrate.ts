// npm run calibrate -- spec.json – answers a calibration spec with the JSON of POST /api/v1/calibrate.
import { readFileSync } from "node:fs";
import { answerCalibration } from "@/lib/calibration/calibrate";
import { MathInputError } from "@/lib/mechanism/errors";
import { calibrationRequestSchema, describeZodError } from "@/lib/validation/calibration";

function fail(lines: string[]): never {
  for (const line of lines) console.error(line);
  process.exit(1);
}

const file = process.argv[2];
if (!file) fail(["usage: npm run calibrate -- spec.json", 'e.g. {"n": 10000, "model": {"kind": "independent"}, "epsBdp": 0.1}']);

let raw: unknown;
try {
  raw = JSON.parse(readFileSync(file, "utf8"));
} catch (error) {
  fail([`${file}: ${(error as Error).message}`]);
}
const parsed = calibrationRequestSchema.safeParse(raw);
if (!parsed.success) fail([`${file} is not a valid calibration spec:`, ...describeZodError(parsed.error)]);
try {
  console.log(JSON.stringify(answerCalibration(parsed.data), null, 2));
} catch (error) {
  if (error instanceof MathInputError) fail([`${file}: ${error.message}`]);
  throw error;
}
