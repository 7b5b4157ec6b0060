// swagger-ui-dist ships no types; the reference page (app/_components/api-reference.tsx) uses this much of it.
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const SwaggerUIBundle: (options: { url: string; domNode: HTMLElement; validatorUrl: null; deepLinking: boolean }) => unknown;
  export default SwaggerUIBundle;
}
