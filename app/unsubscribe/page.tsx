import type { Metadata } from "next";
import { PageCard } from "../_components/section";
import { Unsubscribe } from "../_components/unsubscribe";
import { NOTIFICATION_KINDS, type NotificationKind } from "@/lib/validation/accounts";

export const metadata: Metadata = { title: "Unsubscribe" };

// Where a notification mail's unsubscribe link leads a person: a button that asks before it turns
// that kind of mail off (POST /api/v1/unsubscribe, the mail's one-click List-Unsubscribe).
export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<{ user?: string; kind?: string; sig?: string }> }) {
  const { user, kind, sig } = await searchParams;
  const label = kind && Object.hasOwn(NOTIFICATION_KINDS, kind) ? NOTIFICATION_KINDS[kind as NotificationKind] : undefined;
  return (
    <PageCard title="Unsubscribe">
      {user && sig && label ? (
        <Unsubscribe query={new URLSearchParams({ user, kind: kind!, sig }).toString()} label={label} />
      ) : (
        <p className="text-slate-600">This page opens from the unsubscribe link at the end of a Quiltboard mail.</p>
      )}
    </PageCard>
  );
}
