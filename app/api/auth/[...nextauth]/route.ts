// /api/auth/* – next-auth (email and password, and the configured sign-in providers; JWT sessions)
import NextAuth from "next-auth";
import { authOptions } from "@/lib/server/accounts/auth";

// Built for each request from the configuration as it is (lib/server/platform/env.ts).
const handler = (request: Request, context: { params: Promise<{ nextauth: string[] }> }) => NextAuth(authOptions())(request, context);
export { handler as GET, handler as POST };
