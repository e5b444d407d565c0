// @hey-api/openapi-ts settings: the document from a running server (SKIRMISH_SPEC: a URL or a
// file), validated (a problem in it is reported as an error), the fetch client, and `.js` import
// extensions so the output compiles under `nodenext`.
export default {
  input: process.env.SKIRMISH_SPEC ?? 'http://127.0.0.1:8080/openapi.json',
  output: { path: 'generated', importFileExtension: '.js' },
  parser: { validate_EXPERIMENTAL: true },
  plugins: ['@hey-api/client-fetch'],
};
