// What no message of the API may hold (lib/validation/messages.ts; test/unit/validation-messages.test.ts, test/e2e/api-contract.test.ts).

/** zod's and V8's own phrases (zod 4's English locale, JSON.parse's errors, a TypeError's). */
export const STOCK_PHRASES =
  /Invalid input|Invalid option|Invalid discriminator|Invalid (string|number|key|value|element|email|UUID|URL|ISO)|Too (big|small)|Unrecognized key|expected \w+, received|received (undefined|string|number|boolean|object|array|null)\b|must match pattern|Unexpected token|Unexpected end of JSON|in JSON at position|is not valid JSON|property name or|after property value|after array element|Bad control character|Unterminated string|Cannot read propert|is not a function|is not iterable/;
