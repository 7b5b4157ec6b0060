"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../api-client";
import { FormError } from "../field";
import type { Access } from "@/lib/validation/competitions";

const domainList = (value: FormDataEntryValue | null) =>
  String(value ?? "")
    .split(/[\s,]+/)
    .filter(Boolean);

/**
 * Who may take part (editable after publishing too); the requests to approve or refuse are on the
 * operations page (Registrations). The
 * sign-in a rule may ask for is one of `providers`, this deployment's configured ones (and the
 * rule's own, should its provider have left the configuration since).
 */
export function AccessSettings({ slug, access, providers }: { slug: string; access: Access; providers: { id: string; name: string }[] }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);

  async function save(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const provider = String(form.get("identityProvider") ?? "");
    setPending(true);
    const result = await callApi(`/api/v1/competitions/${slug}`, {
      method: "PATCH",
      json: {
        access: {
          requireVerifiedEmail: form.get("requireVerifiedEmail") === "on",
          allowedEmailDomains: domainList(form.get("domains")),
          approval: form.get("approval") === "on",
          ...(provider ? { identity: { provider, domains: domainList(form.get("identityDomains")) } } : {}),
        },
      },
    });
    setPending(false);
    setSaved(result.ok);
    setError(result.ok ? undefined : result.error.message);
    if (result.ok) router.refresh();
  }

  return (
    <div className="space-y-4">
      <form onSubmit={save} className="space-y-3 text-sm">
        <FormError message={error} />
        <label className="flex items-center gap-2">
          <input type="checkbox" name="requireVerifiedEmail" defaultChecked={access.requireVerifiedEmail} /> Verified email addresses only
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="approval" defaultChecked={access.approval} /> Organizers approve each participant
        </label>
        <div className="space-y-1">
          <label htmlFor="access-domains" className="block font-medium text-slate-700">
            Allowed email domains (subdomains included; empty: any)
          </label>
          <p id="access-domains-hint" className="text-slate-600">
            An address counts once its owner has verified it: anyone can type an address at any domain.
          </p>
          <input
            id="access-domains"
            name="domains"
            aria-describedby="access-domains-hint"
            defaultValue={access.allowedEmailDomains.join(", ")}
            placeholder="e.g. university.edu, lab.org"
            className="block w-full max-w-md rounded-md border border-slate-300 px-3 py-2"
          />
        </div>
        {(providers.length > 0 || access.identity) && (
          <fieldset className="space-y-2">
            <legend className="font-medium text-slate-700">Sign-in through a provider</legend>
            <div className="space-y-1">
              <label htmlFor="access-identity" className="block text-slate-700">
                Participants must have signed in through
              </label>
              <select
                id="access-identity"
                name="identityProvider"
                defaultValue={access.identity?.provider ?? ""}
                className="block w-full max-w-md rounded-md border border-slate-300 bg-white px-3 py-2"
              >
                <option value="">No provider needed</option>
                {providers.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
                {access.identity && !providers.some((p) => p.id === access.identity!.provider) && (
                  <option value={access.identity.provider}>{access.identity.name ?? access.identity.provider} (no longer configured)</option>
                )}
              </select>
            </div>
            <div className="space-y-1">
              <label htmlFor="access-identity-domains" className="block text-slate-700">
                With an address that provider verified at (subdomains included; empty: any)
              </label>
              <input
                id="access-identity-domains"
                name="identityDomains"
                defaultValue={access.identity?.domains.join(", ") ?? ""}
                placeholder="e.g. lab.org"
                className="block w-full max-w-md rounded-md border border-slate-300 px-3 py-2"
              />
            </div>
          </fieldset>
        )}
        <button type="submit" disabled={pending} className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
          Save access rules
        </button>
        {saved && (
          <p role="status" className="text-emerald-700">
            Saved. They apply to teams created or joined from now on{access.identity ? ", and a required sign-in to every submission" : ""}.
          </p>
        )}
      </form>
    </div>
  );
}
