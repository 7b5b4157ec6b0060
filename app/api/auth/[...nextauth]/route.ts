// /api/auth/* – next-auth (credentials, JWT sessions)
import NextAuth from "next-auth";
import { authOptions } from "@/lib/server/accounts/auth";

const handler = NextAuth(authOptions);
export { handler as GET, handler as POST };
