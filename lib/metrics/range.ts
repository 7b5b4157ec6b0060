import { check } from "../mechanism/errors";

/** Checks an organizer-declared label range [lo, hi] for the regression metrics. */
export function checkRange(lo: number | undefined, hi: number | undefined): { lo: number; hi: number } {
  check(lo !== undefined && hi !== undefined, "absolute and squared error need the label range: params lo and hi");
  check(Number.isFinite(lo) && Number.isFinite(hi) && lo < hi, `label range must have lo < hi, got [${lo}, ${hi}]`);
  return { lo, hi };
}
