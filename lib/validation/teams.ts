import { z } from "zod";

export const createTeamSchema = z
  .object({
    name: z.string().trim().min(2, { message: "use at least 2 characters" }).max(60, { message: "use at most 60 characters" }),
    acceptRules: z.literal(true, { message: "accept the competition's rules to take part" }),
  })
  .strict();

export const inviteCodeSchema = z.object({ inviteCode: z.string().trim().min(4).max(64) }).strict();

export const finalSelectionSchema = z.object({ selected: z.boolean() }).strict();
