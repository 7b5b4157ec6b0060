// A real OpenID Connect provider for the tests (the npm package oidc-provider, a certified
// implementation) on 127.0.0.1, run as its own process by scripts/oidc.ts: `node
// scripts/oidc-provider.mjs PORT CLIENT_ID CLIENT_SECRET REDIRECT_URI…`. Its own login form takes
// any login and password: the login is the address it vouches for (and the subject), and a login
// written `unverified:ann@example.org` gives that address with `email_verified: false`.
import { randomBytes } from "node:crypto";
import Provider from "oidc-provider";

const [port, clientId, clientSecret, ...redirectUris] = process.argv.slice(2);
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ["authorization_code"], response_types: ["code"] }],
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "preferred_username"] },
  features: { devInteractions: { enabled: true } },
  cookies: { keys: [randomBytes(32).toString("base64url")] },
  ttl: { Session: 3600, Grant: 3600, Interaction: 3600, AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600 },
  async findAccount(_, sub) {
    const email = sub.replace(/^unverified:/, "");
    const name = email.split("@")[0];
    return { accountId: sub, claims: async () => ({ sub, email, email_verified: !sub.startsWith("unverified:"), name: `${name} at the lab`, preferred_username: name }) };
  },
});
provider.listen(Number(port), "127.0.0.1", () => console.log("ready"));
