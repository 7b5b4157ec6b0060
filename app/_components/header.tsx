import Link from "./link";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { Logo } from "./logo";
import { SignOutButton } from "./sign-out-button";

export async function Header() {
  const user = await getSessionUser();
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <Link href="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight text-slate-900">
          <Logo />
          Quiltboard
        </Link>
        <Link href="/competitions" className="text-sm font-medium text-slate-600 hover:text-slate-900">
          Competitions
        </Link>
        <Link href="/api-reference" className="text-sm font-medium text-slate-600 hover:text-slate-900">
          API
        </Link>
        {user && (
          <Link href="/competitions/new" className="text-sm font-medium text-slate-600 hover:text-slate-900">
            New competition
          </Link>
        )}
        <div className="ml-auto flex items-center gap-3 text-sm">
          {user ? (
            <>
              <Link href="/account" className="font-medium text-slate-700 hover:text-slate-900" data-testid="account-link">
                {user.name}
              </Link>
              <SignOutButton />
            </>
          ) : (
            <>
              <Link href="/signin" className="font-medium text-slate-700 hover:text-slate-900">
                Sign in
              </Link>
              <Link href="/signup" className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700">
                Sign up
              </Link>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}
