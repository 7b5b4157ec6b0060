import "server-only";
import { db } from "./db";
import { AppError } from "./errors";
import { dummyPasswordHash, hashPassword, verifyPassword } from "./passwords";
import { consumeRateLimit } from "./rate-limit";
import { signUpSchema } from "@/lib/validation/accounts";
import { Prisma } from "@/lib/generated/prisma/client";

export type PublicUser = { id: string; email: string; name: string; role: "admin" | "user" };

const PUBLIC = { id: true, email: true, name: true, role: true } as const;

/** Signs a user up; 422 for bad input, 409 when the email is taken. */
export async function createUser(input: unknown, role: "admin" | "user" = "user"): Promise<PublicUser> {
  const { email, password, name } = signUpSchema.parse(input);
  try {
    return await db.user.create({ data: { email, name, role, passwordHash: await hashPassword(password) }, select: PUBLIC });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("conflict", `an account with the email ${email} already exists`);
    }
    throw error;
  }
}

/**
 * The user with these credentials, or null; takes the same time whether or not the email exists.
 * Attempts are rate-limited per email (429), which stops password guessing across instances.
 */
export async function authenticate(email: string, password: string): Promise<PublicUser | null> {
  await consumeRateLimit("signIn", email.trim().toLowerCase());
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { ...PUBLIC, passwordHash: true } });
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !ok) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

export async function getUser(id: string): Promise<PublicUser | null> {
  return db.user.findUnique({ where: { id }, select: PUBLIC });
}
