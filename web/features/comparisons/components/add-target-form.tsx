import { Button, Card, Flex, Heading, TextField } from "@radix-ui/themes";
import { GlobeIcon, PlusIcon } from "@radix-ui/react-icons";
import { type FormEvent, useId, useState } from "react";
import { DisabledReason, ReasonNote } from "#web/components/ui/disabled-reason";
import { useCanEdit } from "#web/lib/workspace";
import type { AddTargetInput } from "#server/modules/comparisons/model";
import { type FieldErrors, hasErrors, validateTarget } from "../validation";
import { FormField, invalidProps } from "./form-field";

/** `onAdd` resolves true when the site was added, so the fields clear only then. */
export function AddTargetForm({ onAdd }: { onAdd(input: AddTargetInput): Promise<boolean> }) {
  const ids = useId();
  const [url, setUrl] = useState("");
  const [label, setLabel] = useState("");
  const [errors, setErrors] = useState<FieldErrors<"url" | "label">>({});
  const [pending, setPending] = useState(false);
  // Viewers read; adding needs the editor role.
  const { canEdit, reason } = useCanEdit();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { errors: found, value } = validateTarget({ url, label });
    setErrors(found);
    if (hasErrors(found)) return;
    setPending(true);
    const ok = await onAdd(value);
    setPending(false);
    if (ok) {
      setUrl("");
      setLabel("");
    }
  }

  return (
    <Card size="3">
      <form onSubmit={submit} noValidate aria-labelledby={`${ids}-title`}>
        <fieldset disabled={!canEdit} className="di-plain-fieldset">
          <Flex direction="column" gap="3">
            <Heading as="h3" size="4" id={`${ids}-title`}>
              Add Competitor Website
            </Heading>
            <Flex gap="3" wrap="wrap" align="start">
              <div style={{ flex: "2 1 260px" }}>
                <FormField id={`${ids}-url`} label="Website URL" error={errors.url}>
                  <TextField.Root
                    id={`${ids}-url`}
                    type="url"
                    inputMode="url"
                    autoComplete="url"
                    value={url}
                    onChange={(e) => setUrl(e.target.value)}
                    placeholder="https://competitor.com"
                    {...invalidProps(`${ids}-url`, errors.url)}
                  >
                    <TextField.Slot>
                      <GlobeIcon />
                    </TextField.Slot>
                  </TextField.Root>
                </FormField>
              </div>
              <div style={{ flex: "1 1 180px" }}>
                <FormField id={`${ids}-label`} label="Display Label" error={errors.label}>
                  <TextField.Root
                    id={`${ids}-label`}
                    value={label}
                    onChange={(e) => setLabel(e.target.value)}
                    placeholder="Competitor A"
                    {...invalidProps(`${ids}-label`, errors.label)}
                  />
                </FormField>
              </div>
            </Flex>
            <Flex justify="end" align="center" gap="3" wrap="wrap">
              <ReasonNote reason={reason} />
              <DisabledReason reason={reason}>
                <Button type="submit" loading={pending} disabled={!canEdit}>
                  <PlusIcon /> Add Website
                </Button>
              </DisabledReason>
            </Flex>
          </Flex>
        </fieldset>
      </form>
    </Card>
  );
}
