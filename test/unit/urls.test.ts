import { describe, expect, it } from "vitest";
import { sameSitePath } from "@/lib/validation/urls";

describe("sameSitePath (the redirect after sign-in)", () => {
  it("keeps paths on this site, with their query and fragment", () => {
    expect(sameSitePath("/competitions/x/manage?tab=2#top", "/")).toBe("/competitions/x/manage?tab=2#top");
    expect(sameSitePath("/a/../account", "/")).toBe("/account");
  });

  it("refuses every way of naming another site", () => {
    for (const hostile of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "/.//evil.example/phish",
      "/a/..//evil.example",
      "/%2e//evil.example",
      "javascript:alert(1)",
      " /x",
      "/\tx",
      "http:/evil.example",
      "",
      undefined,
    ]) {
      expect(sameSitePath(hostile, "/competitions"), String(hostile)).toBe("/competitions");
    }
  });
});
