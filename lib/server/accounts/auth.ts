import "server-only";
import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import { encode } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import type { OAuthConfig, Provider } from "next-auth/providers/index";
import { cookies } from "next/headers";
import { env, required } from "@/lib/server/platform/env";
import { AppError } from "@/lib/server/platform/errors";
import { clientAddress } from "@/lib/server/platform/rate-limit";
import { accountOfIdentity, signInWithIdentity, SignInRefused } from "./identities";
import { findUserByToken } from "./tokens";
import { authenticate, getSessionAccount, type PublicUser, type SignedIn } from "./users";

const SESSION_SECONDS = 30 * 24 * 60 * 60;

type Claims = Record<string, unknown>;
/** A provider this deployment configured: next-auth's provider, its allowed email domains, and how its profile names the person. */
type Configured = { provider: OAuthConfig<Claims>; domains: string[]; username: (profile: Claims) => unknown };

/**
 * The sign-in providers besides email and password, each on when its configuration is set
 * (lib/server/platform/env.ts): GitHub (GITHUB_CLIENT_ID and _SECRET), Google (GOOGLE_CLIENT_ID and
 * _SECRET) and each OpenID Connect provider of QUILTBOARD_OIDC_PROVIDERS. Each answers whether it
 * verified the address: Google and OIDC by `email_verified`, GitHub by the primary address's
 * `verified` in /user/emails (its /user says nothing of it).
 */
function configuredProviders(): Configured[] {
  const e = env();
  const configured: Configured[] = [];
  if (e.GITHUB_CLIENT_ID && e.GITHUB_CLIENT_SECRET) {
    const github = GitHubProvider({
      clientId: e.GITHUB_CLIENT_ID,
      clientSecret: e.GITHUB_CLIENT_SECRET,
      userinfo: {
        url: "https://api.github.com/user",
        async request({ client, tokens }) {
          const profile: Claims = await client.userinfo(tokens.access_token!);
          const answer = await fetch("https://api.github.com/user/emails", { headers: { Authorization: `token ${tokens.access_token}` } });
          const emails = answer.ok ? ((await answer.json()) as { email: string; primary: boolean; verified: boolean }[]) : [];
          const primary = emails.find((m) => m.primary && m.verified);
          return { ...profile, email: primary?.email ?? (typeof profile.email === "string" ? profile.email : undefined), email_verified: Boolean(primary) };
        },
      },
    }) as unknown as OAuthConfig<Claims>;
    configured.push({ provider: github, domains: [], username: (p) => p.login });
  }
  if (e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET) {
    const google = GoogleProvider({ clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET }) as unknown as OAuthConfig<Claims>;
    configured.push({ provider: google, domains: [], username: () => null });
  }
  for (const o of e.QUILTBOARD_OIDC_PROVIDERS ?? []) {
    configured.push({
      domains: o.domains,
      username: (p) => p.preferred_username,
      provider: {
        id: o.id,
        name: o.name,
        type: "oauth",
        wellKnown: `${o.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
        authorization: { params: { scope: "openid email profile" } },
        idToken: true,
        checks: ["pkce", "state"],
        clientId: o.clientId,
        clientSecret: o.clientSecret,
        // The ID token's claims with the userinfo endpoint's (many providers put email_verified only there).
        userinfo: {
          // `tokens` is openid-client's TokenSet, whose claims() are the ID token's.
          request: async ({ client, tokens }) => ({ ...(tokens as unknown as { claims: () => Claims }).claims(), ...(await client.userinfo(tokens.access_token!)) }),
        },
        profile: (p) => ({ id: String(p.sub), name: (p.name ?? p.preferred_username ?? null) as string | null, email: (p.email ?? null) as string | null }),
      },
    });
  }
  return configured;
}

/** The sign-in page's buttons: each configured provider's id and name (none of their secrets). */
export function signInProviders(): { id: string; name: string }[] {
  return configuredProviders().map(({ provider }) => ({ id: provider.id, name: provider.name }));
}

/** Whether this deployment lets people create an account with a password (QUILTBOARD_PASSWORD_SIGNUP). */
export function passwordSignUpOpen(): boolean {
  return env().QUILTBOARD_PASSWORD_SIGNUP;
}

/**
 * next-auth v4, built from the configuration as it is now: email and password, and each configured
 * provider (identities.ts decides which account an identity signs in to, or refuses it: the
 * sign-in page shows why); JWT sessions carrying our user id, role and session version.
 */
export function authOptions(): NextAuthOptions {
  const configured = configuredProviders();
  const byId = new Map(configured.map((c) => [c.provider.id, c]));
  const providers: Provider[] = [
    CredentialsProvider({
      name: "Email",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        if (!credentials?.email || !credentials.password) return null;
        const signedIn = await authenticate(credentials.email, credentials.password, clientAddress({ headers: request.headers ?? {} }));
        return signedIn && { ...signedIn.user, sv: signedIn.sessionVersion };
      },
    }),
    ...configured.map((c) => c.provider),
  ];
  return {
    session: { strategy: "jwt", maxAge: SESSION_SECONDS },
    pages: { signIn: "/signin", error: "/signin" },
    providers,
    callbacks: {
      async signIn({ account, profile }) {
        const source = account && byId.get(account.provider);
        if (!account || account.type !== "oauth" || !source) return account?.type === "credentials";
        const claims = (profile ?? {}) as Claims;
        try {
          await signInWithIdentity({
            provider: account.provider,
            subject: account.providerAccountId,
            email: typeof claims.email === "string" ? claims.email : null,
            emailVerified: claims.email_verified === true || claims.email_verified === "true",
            name: typeof claims.name === "string" ? claims.name : null,
            username: typeof source.username(claims) === "string" ? (source.username(claims) as string) : null,
            domains: source.domains,
          });
          return true;
        } catch (error) {
          if (error instanceof SignInRefused) return `/signin?error=${error.reason}`;
          throw error;
        }
      },
      async jwt({ token, user, account }) {
        if (user) {
          // After a provider's sign-in, `user` is the provider's profile: the session names the account it signed in to.
          // After a password's, the session carries the version read with the password hash it was checked against:
          // a reset that commits after that read leaves this session dead from its first request.
          const signedIn: SignedIn | null =
            account?.type === "oauth"
              ? await accountOfIdentity(account.provider, account.providerAccountId)
              : { user: user as PublicUser, sessionVersion: (user as PublicUser & { sv: number }).sv };
          if (!signedIn) throw new AppError("unauthorized", "this identity is linked to no account");
          const { id, name, email, role } = signedIn.user;
          Object.assign(token, { sub: id, name, email, role, sv: signedIn.sessionVersion });
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
}

/**
 * The signed-in user of this request's session with the session version it carries, checked
 * against the database, or null; a session from before a password reset or change (which raises
 * the account's session version) is signed out.
 */
export async function getSession(): Promise<SignedIn | null> {
  const session = await getServerSession(authOptions());
  if (!session?.user?.id) return null;
  const sessionVersion = session.user.sv ?? 0;
  const user = await getSessionAccount(session.user.id, sessionVersion);
  return user && { user, sessionVersion };
}

/** The signed-in user of this request's session (getSession), or null. */
export async function getSessionUser(): Promise<PublicUser | null> {
  return (await getSession())?.user ?? null;
}

/**
 * After a password change (which raises the account's session version, signing every session out):
 * the session that made the change gets a new cookie with the version the change wrote, so it stays signed in.
 * A caller with an API token and no session of this account has nothing to renew. Called by route
 * handlers, where next/headers' cookies() sets the answer's cookie; the cookie is next-auth's own
 * (its name, its JWT encoding, its attributes).
 */
export async function renewSession({ user, sessionVersion }: SignedIn): Promise<void> {
  const session = await getServerSession(authOptions());
  if (session?.user?.id !== user.id) return;
  const secure = env().NEXTAUTH_URL.startsWith("https://");
  const token = await encode({
    token: { sub: user.id, name: user.name, email: user.email, role: user.role, sv: sessionVersion },
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

/**
 * Who may create an API token (docs/api.md, POST /api/v1/tokens): HTTP Basic `email:password`, or
 * this site's web session (the account page), with the session version it carries; never another
 * token. 401 on any mismatch.
 */
export async function requireTokenCreator(request: Request): Promise<SignedIn> {
  if (request.headers.get("authorization")) return requireBasicUser(request);
  checkSameOrigin(request);
  const session = await getSession();
  if (!session) throw new AppError("unauthorized", "send HTTP Basic credentials (email:password), or sign in");
  return session;
}

/** HTTP Basic `email:password`; 401 on any mismatch. */
export async function requireBasicUser(request: Request): Promise<SignedIn> {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!match) throw new AppError("unauthorized", "send HTTP Basic credentials (email:password)");
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const user = colon > 0 ? await authenticate(decoded.slice(0, colon), decoded.slice(colon + 1), clientAddress(request)) : null;
  if (!user) throw new AppError("unauthorized", "wrong email or password");
  return user;
}
