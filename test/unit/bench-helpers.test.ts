import { describe, expect, it } from "vitest";
import { formatBytes, parseBytes } from "@/scripts/bench/bytes";
import { parseCpuSeconds } from "@/scripts/bench/proc";

// The sizes `npm run bench -- files --size=…` takes (binary units) and how its figures print them.
describe("parseBytes", () => {
  it.each([
    ["2G", 2 * 1024 ** 3],
    ["256M", 256 * 1024 ** 2],
    ["256MB", 256 * 1024 ** 2],
    ["256MiB", 256 * 1024 ** 2],
    ["1.5GiB", 1.5 * 1024 ** 3],
    ["64k", 65_536],
    ["1T", 1024 ** 4],
    ["1000", 1000],
    [" 3 m ", 3 * 1024 ** 2],
  ])("%s is %d bytes", (text, bytes) => expect(parseBytes(text)).toBe(bytes));

  it.each([[""], ["G"], ["0"], ["-1G"], ["2X"], ["2GG"], ["1e9"], ["0.1"], ["two gigabytes"]])("refuses %j, naming it", (text) =>
    expect(() => parseBytes(text)).toThrow(`"${text}" is not a size`),
  );
});

describe("formatBytes", () => {
  it.each([
    [2 * 1024 ** 3, "2 GiB"],
    [256 * 1024 ** 2, "256 MiB"],
    [1536, "1.5 KiB"],
    [1023, "1023 bytes"],
    [5 * 1024 ** 4, "5 TiB"],
  ])("%d is %s", (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

// /proc/PID/stat as Linux writes it (proc(5)): utime and stime are fields 14 and 15, in ticks of 1/100 s.
describe("parseCpuSeconds", () => {
  const line = (command: string) =>
    `4242 (${command}) S 1 4242 4242 0 -1 4194560 2154 0 0 0 1234 567 0 0 20 0 11 0 3862906 1233530880 31563 18446744073709551615 1 1 0 0 0 0 0 4096 134234626 0 0 0 17 1 0 0 0 0 0\n`;

  it("adds user and system time", () => expect(parseCpuSeconds(line("node"))).toBe(18.01));

  it("reads past a command name with spaces and parentheses", () => expect(parseCpuSeconds(line("next-server (v16) x"))).toBe(18.01));

  it.each([[""], ["4242 node S 1"], ["4242 (node) S 1 2 3"]])("refuses %j", (text) => expect(() => parseCpuSeconds(text)).toThrow("not a /proc/PID/stat line"));
});
