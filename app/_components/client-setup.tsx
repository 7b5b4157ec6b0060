import { appLink } from "@/lib/server/platform/mail";

const CODE = "overflow-x-auto rounded-md bg-slate-100 p-3 font-mono text-xs leading-relaxed text-slate-800";

/**
 * How to reach this Quiltboard from a notebook or a terminal (docs/clients.md): the Python client
 * and the `quiltboard` command as the app serves them, for one competition (the Data tab) or any
 * (the account page, beside the tokens they use).
 */
export function ClientSetup({ slug }: { slug?: string }) {
  const python = appLink("/quiltboard-python.tar.gz");
  const cli = appLink("/quiltboard-cli.tgz");
  const competition = slug ? appLink(`/competitions/${slug}`) : appLink("/competitions/SLUG");
  return (
    <div className="space-y-3 text-sm leading-relaxed" data-testid="client-setup">
      <p>From Python (3.8 or newer, nothing else needed; pandas optional), with an API token from your account page:</p>
      <pre className={CODE} tabIndex={0}>
        {[
          `pip install ${python}`,
          "",
          "from quiltboard import Client",
          `qb = Client("${competition}", token="qb_...")  # or $QUILTBOARD_TOKEN`,
          "qb.download()                 # the data files, skipping those you have",
          'answer = qb.submit(predictions_df, description="first try")',
        ].join("\n")}
      </pre>
      <p>From a terminal (Node 20.19 or newer), with Kaggle&apos;s commands and flags; the token goes to ~/.quiltboard/quiltboard.json:</p>
      <pre className={CODE} tabIndex={0}>
        {[
          `npm install -g ${cli}`,
          `quiltboard login --url ${appLink("/").replace(/\/$/, "")}`,
          ...(slug ? [`quiltboard config set -n competition -v ${slug}`, "quiltboard download", 'quiltboard submit -f predictions.csv -m "first try"'] : []),
        ].join("\n")}
      </pre>
    </div>
  );
}
