import Link from "./_components/link";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-slate-600">There is nothing at this address.</p>
      <Link href="/competitions" className="mt-6 inline-block font-medium text-indigo-700 hover:underline">
        Go to competitions
      </Link>
    </div>
  );
}
