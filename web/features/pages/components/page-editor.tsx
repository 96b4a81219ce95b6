import { Button, Callout, Dialog, Flex, Select, Text, TextField } from "@radix-ui/themes";
import { ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { type FormEvent, useId, useState } from "react";
import type { PageRole } from "#server/modules/capture/model";
import { errorMessage } from "#web/lib/api";
import { PAGE_ROLES, ROLE_LABELS } from "#web/lib/page-roles";
import { addPage, type PageDto, updatePage } from "../api";
import { pathProblem, toPath } from "../paths";
import { fromDraft, secretNames, type StepDraft, stepNamed, stepsError, toDraft } from "../steps";
import { StepEditor } from "./step-editor";

interface Props {
  targetId: string;
  /** The site's URL: paths and gotos stay on its origin. */
  siteUrl: string;
  /** The page to edit, or null to add one. */
  page: PageDto | null;
  onClose(): void;
  onSaved(page: PageDto): void;
}

/** Add or edit one page of a site: its path, its role and the steps before capture. */
export function PageEditor({ targetId, siteUrl, page, onClose, onSaved }: Props) {
  const ids = useId();
  const origin = new URL(siteUrl).origin;
  const [path, setPath] = useState(page?.path ?? "");
  const [role, setRole] = useState<PageRole>(page?.role ?? "pricing");
  const [steps, setSteps] = useState<StepDraft[]>(() => (page?.steps ?? []).map(toDraft));
  const [pathError, setPathError] = useState<string | null>(null);
  const [stepsMessage, setStepsMessage] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const isHome = page?.role === "home";

  async function save(e: FormEvent) {
    e.preventDefault();
    const list = steps.map(fromDraft);
    const badPath = isHome ? null : pathProblem(path, origin);
    const badSteps = stepsError(list, origin);
    setPathError(badPath);
    setStepsMessage(badSteps);
    setFormError(null);
    if (badPath || badSteps) return;
    setSaving(true);
    try {
      const input = isHome ? { steps: list } : { path: toPath(path, origin), role, steps: list };
      onSaved(page ? await updatePage(page.id, input) : await addPage(targetId, { path: toPath(path, origin), role, steps: list }));
    } catch (err) {
      // The server names the step that breaks a rule ("Step 3: …"): it goes with the steps.
      const message = errorMessage(err, "Unable to save the page. Please try again.");
      if (stepNamed(message) !== null || /steps?\b/i.test(message)) setStepsMessage(message);
      else setFormError(message);
    } finally {
      setSaving(false);
    }
  }

  const needed = secretNames(steps.map(fromDraft));
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Content maxWidth="860px" aria-describedby={`${ids}-desc`}>
        <Dialog.Title>{page ? `Edit ${page.path}` : "Add a page"}</Dialog.Title>
        <Dialog.Description id={`${ids}-desc`} size="2" color="gray" mb="3">
          A page of {origin}. Steps run in order before the page is measured: dismiss a widget, open a tab, log in.
        </Dialog.Description>
        <form onSubmit={save} noValidate aria-label={page ? "Edit page" : "Add page"}>
          <Flex direction="column" gap="3">
            <Flex gap="3" wrap="wrap" align="start">
              <Flex direction="column" gap="1" style={{ flex: "2 1 240px" }}>
                <Text as="label" size="2" weight="medium" htmlFor={`${ids}-path`}>
                  Path
                </Text>
                <TextField.Root
                  id={`${ids}-path`}
                  value={path}
                  disabled={isHome}
                  placeholder="/pricing"
                  onChange={(e) => setPath(e.target.value)}
                  {...(pathError ? { "aria-invalid": true, "aria-describedby": `${ids}-path-error` } : {})}
                />
                {pathError && (
                  <Text as="p" id={`${ids}-path-error`} size="1" color="red" role="alert" m="0">
                    {pathError}
                  </Text>
                )}
              </Flex>
              <Flex direction="column" gap="1" style={{ flex: "1 1 160px" }}>
                <Text as="label" size="2" weight="medium" id={`${ids}-role`}>
                  Role
                </Text>
                <Select.Root value={role} disabled={isHome} onValueChange={(v) => setRole(v as PageRole)}>
                  <Select.Trigger aria-labelledby={`${ids}-role`} />
                  <Select.Content position="popper">
                    {PAGE_ROLES.filter((r) => r !== "home" || isHome).map((r) => (
                      <Select.Item key={r} value={r}>
                        {ROLE_LABELS[r]}
                      </Select.Item>
                    ))}
                  </Select.Content>
                </Select.Root>
              </Flex>
            </Flex>
            <Text size="2" weight="medium">
              Steps before capture
            </Text>
            <StepEditor steps={steps} onChange={setSteps} problemStep={stepNamed(stepsMessage)} idPrefix={ids} />
            {stepsMessage && (
              <Text as="p" size="2" color="red" role="alert" m="0" data-testid="steps-error">
                {stepsMessage}
              </Text>
            )}
            {needed.length > 0 && (
              <Text size="1" color="gray">
                Uses the site's secret{needed.length > 1 ? "s" : ""} {needed.join(", ")}: set {needed.length > 1 ? "them" : "it"} under
                Secrets.
              </Text>
            )}
            {formError && (
              <Callout.Root color="red" size="1">
                <Callout.Icon>
                  <ExclamationTriangleIcon />
                </Callout.Icon>
                <Callout.Text>{formError}</Callout.Text>
              </Callout.Root>
            )}
            <Flex gap="2" justify="end">
              <Dialog.Close>
                <Button type="button" variant="soft" color="gray">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" loading={saving}>
                Save page
              </Button>
            </Flex>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
