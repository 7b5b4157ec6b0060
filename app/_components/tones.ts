// The design's colours in one place: the buttons and notes every page uses, and the backgrounds
// text may sit on. test/unit/contrast.test.ts holds every text colour of the app (these and each
// component's own classes) to WCAG AA against the background it is drawn on: 4.5:1.

/** Buttons, by what they do. Disabled buttons fade (WCAG exempts inactive controls from contrast). */
export const BUTTON = {
  primary: "rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-60",
  secondary: "rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-60",
  /** an action that makes a competition public */
  go: "rounded-md bg-emerald-700 px-4 py-2 font-medium text-white hover:bg-emerald-800 disabled:cursor-not-allowed disabled:opacity-60",
  /** an action that cannot be undone */
  danger: "rounded-md bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-60",
  /** a small bordered button inside a table row or a line of text */
  small: "rounded-md border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-60",
} as const;

/** Boxed messages: an error, a warning, a success, a piece of information. */
export const NOTE = {
  error: "rounded-md bg-red-50 px-3 py-2 text-sm text-red-800",
  warning: "rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900",
  success: "rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800",
  info: "rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-900",
} as const;

/** A file chooser: its button looks like the primary button (the same colours). */
export const FILE_INPUT =
  "mt-1 block w-full text-sm text-slate-700 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-indigo-600 file:px-3 file:py-2 file:font-medium file:text-white hover:file:bg-indigo-700 disabled:opacity-60";

/** A link in running text. */
export const LINK = "font-medium text-indigo-700 underline-offset-2 hover:underline";

/** The surfaces text is drawn on when its own classes set no background: the page and a card. */
export const SURFACES = ["slate-50", "white"] as const;
