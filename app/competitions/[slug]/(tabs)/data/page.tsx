import Link from "../../../../_components/link";
import { listAttachments } from "@/lib/server/competitions/attachments";
import { readablePreviews } from "@/lib/server/competitions/previews";
import { DataFile } from "../../../../_components/data-file";
import { metricOf } from "@/lib/server/competitions/competitions";
import { Section } from "../../../../_components/section";
import { LINK, NOTE } from "../../../../_components/tones";
import { loadCompetition, tabMetadata } from "../competition";
import { ClientSetup } from "../../../../_components/client-setup";

export const generateMetadata = ({ params }: { params: Promise<{ slug: string }> }) => tabMetadata(params, "Data");

/** What one prediction is, by the metric's label kind. */
const PREDICTION = {
  class: "the predicted class: one of the labels the training data uses",
  probability: "the probability that the label is 1, a number from 0 to 1",
  number: "a number",
} as const;

/**
 * The Data tab: the files the organizers attached, listed once, each with its size and SHA-256, downloadable and
 * previewed (the first rows and column summaries its upload computed) once the viewer may read the
 * data: has accepted the rules (is in a team) and meets the access rules, or organizes it; and what
 * a submission file looks like.
 */
export default async function DataPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { viewer, competition, organizer, team } = await loadCompetition(slug);
  const files = await listAttachments(competition.id);
  const previews = new Map((files.length ? ((await readablePreviews(viewer, slug)) ?? []) : []).map((f) => [f.id, f.preview]));
  const mayDownload = organizer || team !== null;
  const metric = metricOf(competition);
  const range = competition.metricParams as { lo?: number; hi?: number };
  const base = `/competitions/${slug}`;
  return (
    <div className="space-y-6">
      <Section id="files" title="Data files">
        {files.length === 0 ? (
          <p className="text-sm text-slate-600">The organizers have not attached any files yet.</p>
        ) : (
          <>
            {!mayDownload && (
              <p className={NOTE.info} data-testid="download-gate">
                {viewer ? "Accept the rules (create or join a team) to download the data." : "Sign in and accept the rules (create or join a team) to download the data."}{" "}
                <Link href={`${base}/team`} className="font-medium underline">
                  {viewer ? "Join competition" : "Sign in to join"}
                </Link>
              </p>
            )}
            {files.map((f) => (
              <DataFile
                key={f.id}
                file={f}
                href={mayDownload ? `/api/v1/competitions/${slug}/attachments/${f.id}` : undefined}
                preview={previews.has(f.id) ? previews.get(f.id) : undefined}
              />
            ))}
          </>
        )}
      </Section>
      <Section id="format" title="Submission file">
        <div className="space-y-2 text-sm leading-relaxed">
          <p>
            A CSV file with the header <code className="rounded bg-slate-100 px-1 font-mono">id,prediction</code> and one row for every test id: the public rows and the hidden
            holdout rows alike (you are not told which row is which). Each prediction is {PREDICTION[metric.input]}
            {metric.input === "number" && range.lo !== undefined && range.hi !== undefined
              ? `; values outside ${range.lo} to ${range.hi}, the labels' range, count as the nearest end of it`
              : ""}
            .
          </p>
          <p>
            Submit on the{" "}
            <Link href={`${base}/submissions`} className={LINK}>
              My submissions
            </Link>{" "}
            tab, or from a terminal with <code className="rounded bg-slate-100 px-1 font-mono">quiltboard submit {slug} predictions.csv</code>.
          </p>
        </div>
      </Section>
      <Section id="clients" title="From Python or a terminal">
        <ClientSetup slug={slug} />
      </Section>
    </div>
  );
}
