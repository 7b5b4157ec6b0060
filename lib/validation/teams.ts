import { z } from "zod";
import "./messages";
import { text } from "./text";

export const createTeamSchema = z
  .object({
    name: text().trim().min(2, { message: "use at least 2 characters" }).max(60, { message: "use at most 60 characters" }),
    acceptRules: z.literal(true, { message: "accept the competition's rules to take part" }),
  })
  .strict();
export type CreateTeamInput = z.infer<typeof createTeamSchema>;

export const inviteCodeSchema = z.object({ inviteCode: text().trim().min(4).max(64) }).strict();
export type InviteCodeInput = z.infer<typeof inviteCodeSchema>;

export const finalSelectionSchema = z.object({ selected: z.boolean() }).strict();
export type FinalSelectionInput = z.infer<typeof finalSelectionSchema>;

/** POST …/teams/{teamId}/disqualify (organizers): the reason, shown on the team's page. */
export const disqualifySchema = z.object({ reason: text().trim().min(3, { message: "say why, in a few words" }).max(500) }).strict();
export type DisqualifyInput = z.infer<typeof disqualifySchema>;
