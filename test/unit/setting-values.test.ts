import { describe, expect, it } from "vitest";
import { describeChange, excerptsAroundChange } from "@/lib/setting-values";

describe("a settings change in words", () => {
  it("cuts two long texts around where they differ, so the change shows", () => {
    const before = `${"Predict spikes in household power. ".repeat(4)}Rows are hourly readings.${" More text follows here.".repeat(4)}`;
    const after = before.replace("hourly readings", "readings every 15 minutes");
    const [a, b] = excerptsAroundChange(before, after);
    expect(a).toBe("…old power. Rows are hourly readings. More text follows here.…");
    expect(b).toBe("…old power. Rows are readings every 15 minutes. More text fol…");
    expect(a).not.toBe(b);
  });

  it("keeps short texts whole and cuts a change at the start from the start", () => {
    expect(excerptsAroundChange("Old title", "New title")).toEqual(["Old title", "New title"]);
    const [a, b] = excerptsAroundChange(`A${"x".repeat(100)}`, `B${"x".repeat(100)}`, 20);
    expect([a, b]).toEqual([`A${"x".repeat(19)}…`, `B${"x".repeat(19)}…`]);
  });

  it("says access rules, metrics and dates in words, not JSON", () => {
    expect(
      describeChange({
        field: "access",
        before: { requireVerifiedEmail: false, allowedEmailDomains: [], approval: false },
        after: { requireVerifiedEmail: true, allowedEmailDomains: ["uni.edu"], approval: false },
      }),
    ).toEqual({ name: "Who may take part", before: "anyone with an account", after: "verified email addresses only; addresses at uni.edu only" });
    expect(describeChange({ field: "access", before: {}, after: { approval: true } })).toEqual({
      name: "Who may take part",
      before: "anyone with an account",
      after: "people the organizers approved",
    });
    // An identity rule by the provider's configured name, said whole, however long.
    const domains = ["physics.university.example", "chemistry.university.example", "biology.university.example"];
    expect(describeChange({ field: "access", before: {}, after: { identity: { provider: "lab", name: "Lab SSO", domains } } })).toEqual({
      name: "Who may take part",
      before: "anyone with an account",
      after: "people signed in through Lab SSO with an address at physics.university.example, chemistry.university.example, biology.university.example",
    });
    expect(describeChange({ field: "metric", before: { name: "accuracy", params: {} }, after: { name: "absolute-error", params: { lo: 0, hi: 10 } } })).toEqual({
      name: "Metric",
      before: "Accuracy",
      after: "Mean absolute error (labels 0 to 10)",
    });
    expect(describeChange({ field: "startsAt", before: null, after: "2027-01-01T00:00:00.000Z" })).toEqual({ name: "Start", before: "(none)", after: "1 Jan 2027, 00:00 UTC" });
  });
});
