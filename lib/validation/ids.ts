const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path segment can be a row id; anything else is simply not found. */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}
