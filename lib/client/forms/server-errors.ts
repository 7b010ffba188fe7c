import type { FieldPath, FieldValues, UseFormSetError } from "react-hook-form";

/**
 * A 422's field errors (the envelope's `data.fieldErrors`, as `ApiError.fieldErrors`) beside the form's own fields;
 * fields the form does not have are left to the message. Answers whether any was placed (the first one is focused).
 */
export function showServerFieldErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  fieldErrors: Record<string, string[] | undefined>,
  fields: readonly FieldPath<T>[],
): boolean {
  let placed = false;
  for (const field of fields) {
    const message = fieldErrors[field]?.[0];
    if (!message) continue;
    setError(field, { type: "server", message }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}
