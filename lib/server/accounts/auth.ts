import "server-only";
import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import { encode } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { cookies } from "next/headers";
import { env, required } from "@/lib/server/platform/env";
import { AppError } from "@/lib/server/platform/errors";
import { clientAddress } from "@/lib/server/platform/rate-limit";
import { findUserByToken } from "./tokens";
import { authenticate, getSessionAccount, type PublicUser, sessionVersionOf } from "./users";

const SESSION_SECONDS = 30 * 24 * 60 * 60;

/** next-auth v4: email + password, JWT sessions carrying the user id, role and session version. */
export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: SESSION_SECONDS },
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      name: "Email",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        if (!credentials?.email || !credentials.password) return null;
        return authenticate(credentials.email, credentials.password, clientAddress({ headers: request.headers ?? {} }));
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.role = (user as PublicUser).role;
        token.sv = await sessionVersionOf(user.id);
      }
      return token;
    },
    session({ session, token }) {
      if (session.user && token.sub) {
        session.user.id = token.sub;
        session.user.role = token.role as PublicUser["role"];
        session.user.sv = (token.sv as number | undefined) ?? 0;
      }
      return session;
    },
  },
};

/**
 * The signed-in user of this request's session, checked against the database, or null; a session
 * from before a password reset (which raises the account's session version) is signed out.
 */
export async function getSessionUser(): Promise<PublicUser | null> {
  const session = await getServerSession(authOptions);
  return session?.user?.id ? getSessionAccount(session.user.id, session.user.sv ?? 0) : null;
}

/**
 * After a password change (which raises the account's session version, signing every session out):
 * the session that made the change gets a new cookie with the new version, so it stays signed in.
 * A caller with an API token and no session of this account has nothing to renew. Called by route
 * handlers, where next/headers' cookies() sets the answer's cookie; the cookie is next-auth's own
 * (its name, its JWT encoding, its attributes).
 */
export async function renewSession(user: PublicUser): Promise<void> {
  const session = await getServerSession(authOptions);
  if (session?.user?.id !== user.id) return;
  const secure = env().NEXTAUTH_URL.startsWith("https://");
  const token = await encode({
    token: { sub: user.id, name: user.name, email: user.email, role: user.role, sv: await sessionVersionOf(user.id) },
    secret: required("NEXTAUTH_SECRET"),
    maxAge: SESSION_SECONDS,
  });
  (await cookies()).set(`${secure ? "__Secure-" : ""}next-auth.session-token`, token, { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: SESSION_SECONDS });
}

/** The owner of the request's Bearer token; null without one; 401 for an invalid or revoked one. */
async function findUserByBearer(request: Request): Promise<PublicUser | null> {
  const header = request.headers.get("authorization");
  if (!header || !/^Bearer\s/i.test(header)) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const user = match ? await findUserByToken(match[1]) : null;
  if (!user) throw new AppError("unauthorized", "invalid or revoked API token");
  return user;
}

/**
 * The caller of an API request, if any: a Bearer token, or else the web session (401 for a bad
 * token). A session-authenticated write must come from this site: a browser sends Origin (and
 * Sec-Fetch-Site) with every cross-origin write, so another site's page cannot act with the
 * user's cookie (CSRF); clients without cookies use tokens and are unaffected.
 */
export async function findApiUser(request: Request): Promise<PublicUser | null> {
  const bearer = await findUserByBearer(request);
  if (bearer) return bearer;
  if (request.method !== "GET" && request.method !== "HEAD") checkSameOrigin(request);
  return getSessionUser();
}

function checkSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  const crossSite = request.headers.get("sec-fetch-site") === "cross-site";
  if (crossSite || (origin !== null && hostOf(origin) !== host)) {
    throw new AppError("forbidden", "cross-site request refused: use an API token, or this site's own pages");
  }
}

/** The host of an Origin header, or null for "null" and anything that is not a URL. */
function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host || null;
  } catch {
    return null;
  }
}

/** The caller of an API request; 401 when there is none (and for a revoked token). */
export async function requireApiUser(request: Request): Promise<PublicUser> {
  const user = await findApiUser(request);
  if (!user) throw new AppError("unauthorized", "sign in or send Authorization: Bearer <token>");
  return user;
}

/** HTTP Basic `email:password` (docs/api.md, POST /api/v1/tokens); 401 on any mismatch. */
export async function requireBasicUser(request: Request): Promise<PublicUser> {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!match) throw new AppError("unauthorized", "send HTTP Basic credentials (email:password)");
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const user = colon > 0 ? await authenticate(decoded.slice(0, colon), decoded.slice(colon + 1), clientAddress(request)) : null;
  if (!user) throw new AppError("unauthorized", "wrong email or password");
  return user;
}
