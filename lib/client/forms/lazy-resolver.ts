import type { FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";

/**
 * A form's zod resolver whose schema (and zod itself) loads on the form's first validation, not with the page: the
 * sign-in and account pages carry no zod in their first-load JavaScript (bench 4). The schema is still the one the
 * handler parses with (lib/client/…/schemas).
 */
export function lazyZodResolver<Input extends FieldValues, Output>(load: () => Promise<z.ZodType<Output, Input>>): Resolver<Input, unknown, Output> {
  let ready: Promise<Resolver<Input, unknown, Output>> | undefined;
  return (values, context, options) => {
    ready ??= Promise.all([load(), import("@hookform/resolvers/zod")]).then(
      ([schema, { zodResolver }]) => zodResolver(schema) as Resolver<Input, unknown, Output>,
    );
    return ready.then((resolve) => resolve(values, context, options));
  };
}
