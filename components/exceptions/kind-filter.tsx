"use client";

import { useForm } from "react-hook-form";

import { FilterActions } from "@/components/ui/filter-actions";
import { LabelledControl, inputClass } from "@/components/ui/field";
import { EXCEPTION_KINDS, KIND_LABELS, exceptionListFromSearch, type ExceptionListQuery } from "@/lib/client/exceptions/view";

import { exceptionsHref } from "./format";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

// The kind filter: a choice applied at once (and by its button), read back through the route's own URL rule, so
// nothing the route would not accept reaches the URL. A new kind starts at page 1, in the same status.

interface KindForm {
  kind: string;
}

export function KindFilter({ query, onApply }: { query: ExceptionListQuery; onApply: (next: ExceptionListQuery) => void }) {
  const form = useForm<KindForm>({ defaultValues: { kind: query.kind ?? "" } });
  const submit = ({ kind }: KindForm) => {
    const { kind: checked } = exceptionListFromSearch((name) => (name === "kind" ? kind : null));
    onApply({ status: query.status, kind: checked, page: 1 });
  };
  return (
    <form role="search" aria-label="Filter exceptions" className="flex flex-wrap items-end gap-3" onSubmit={form.handleSubmit(submit)}>
      <ReadyFieldset>
        <LabelledControl id="exceptions-kind" label="Kind">
          <select id="exceptions-kind" className={inputClass} {...form.register("kind", { onChange: () => void form.handleSubmit(submit)() })}>
            <option value="">Every kind</option>
            {EXCEPTION_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </LabelledControl>
        <FilterActions submitLabel="Show" clearHref={query.kind ? exceptionsHref({ status: query.status, page: 1 }) : null} />
      </ReadyFieldset>
    </form>
  );
}
