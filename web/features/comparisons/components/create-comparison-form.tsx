import { Button, Card, Flex, Heading, Text, TextArea, TextField } from "@radix-ui/themes";
import { PlusIcon } from "@radix-ui/react-icons";
import { type FormEvent, useId, useState } from "react";
import { DisabledReason, ReasonNote } from "#web/components/ui/disabled-reason";
import { useCanEdit } from "#web/lib/workspace";
import type { ComparisonDto } from "#server/modules/comparisons/model";
import { errorMessage } from "#web/lib/api";
import { toast } from "#web/components/ui/toast";
import { createComparison } from "../api";
import { type FieldErrors, hasErrors, validateComparison } from "../validation";
import { FormField, invalidProps } from "./form-field";

export function CreateComparisonForm({ onCreated }: { onCreated(c: ComparisonDto): void }) {
  const ids = useId();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [errors, setErrors] = useState<FieldErrors<"name" | "description">>({});
  const [pending, setPending] = useState(false);
  // Viewers read; adding needs the editor role.
  const { canEdit, reason } = useCanEdit();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { errors: found, value } = validateComparison({ name, description });
    setErrors(found);
    if (hasErrors(found)) return;
    setPending(true);
    try {
      const created = await createComparison(value);
      toast({ title: "Comparison Created", description: `"${created.name}" is ready. Add at least 2 websites to compare.` });
      setName("");
      setDescription("");
      onCreated(created);
    } catch (err) {
      toast({
        title: "Creation Failed",
        description: errorMessage(err, "Unable to create comparison. Please try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <Card size="2">
      <form onSubmit={submit} noValidate aria-labelledby={`${ids}-title`}>
        <fieldset disabled={!canEdit} className="di-plain-fieldset">
          <Flex direction="column" gap="3">
            <Heading as="h2" size="4" id={`${ids}-title`}>
              New Comparison
            </Heading>
            <FormField id={`${ids}-name`} label="Comparison Name" error={errors.name}>
              <TextField.Root
                id={`${ids}-name`}
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="e.g. Checkout pages, Q3 showdown"
                {...invalidProps(`${ids}-name`, errors.name)}
              />
            </FormField>
            <FormField
              id={`${ids}-desc`}
              label={
                <>
                  Description{" "}
                  <Text color="gray" weight="regular">
                    (optional)
                  </Text>
                </>
              }
              error={errors.description}
            >
              <TextArea
                id={`${ids}-desc`}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
                placeholder="What are you sizing up?"
                rows={2}
                {...invalidProps(`${ids}-desc`, errors.description)}
              />
            </FormField>
            <DisabledReason reason={reason}>
              <Button type="submit" loading={pending} disabled={!canEdit} style={{ width: "100%" }}>
                <PlusIcon /> Create Comparison
              </Button>
            </DisabledReason>
            <ReasonNote reason={reason} />
          </Flex>
        </fieldset>
      </form>
    </Card>
  );
}
