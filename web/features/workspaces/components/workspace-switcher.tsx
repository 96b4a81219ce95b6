import "../workspaces.css";
import { CaretSortIcon, PlusIcon } from "@radix-ui/react-icons";
import { Button, Dialog, DropdownMenu, Flex, Text, TextField, Tooltip } from "@radix-ui/themes";
import { type FormEvent, useState } from "react";
import { errorMessage } from "#web/lib/api";
import type { CurrentWorkspace } from "#web/lib/workspace";
import type { ListState } from "../store";
import { ROLE_LABEL } from "../roles";

export interface WorkspaceSwitcherProps {
  current: CurrentWorkspace | null;
  list: readonly CurrentWorkspace[];
  state: ListState;
  /** The sidebar shows icons only: the switcher is its mark, the name in a tooltip. */
  collapsed?: boolean;
  onSwitch(workspace: CurrentWorkspace): Promise<void>;
  /** Makes a workspace and switches to it; a rejection's server words show in the dialog. */
  onCreate(name: string): Promise<void>;
}

const initial = (name: string) => (name.trim()[0] ?? "?").toUpperCase();
/** A personal workspace is called "Personal" unless renamed; a renamed one still says what it is. */
const labelOf = (w: CurrentWorkspace) => (w.personal && !/personal/i.test(w.name) ? `${w.name} (personal)` : w.name);

function NewWorkspaceDialog({
  open,
  onOpenChange,
  onCreate,
}: {
  open: boolean;
  onOpenChange(o: boolean): void;
  onCreate(name: string): Promise<void>;
}) {
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || busy) return;
    setBusy(true);
    setError(null);
    try {
      await onCreate(trimmed);
      setName("");
      onOpenChange(false);
    } catch (err) {
      setError(errorMessage(err, "Could not create the workspace."));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="420px">
        <Dialog.Title>New workspace</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          A place for a team's comparisons. You own it; invite people from Settings.
        </Dialog.Description>
        <form onSubmit={submit}>
          <label>
            <Text as="div" size="2" weight="medium" mb="1">
              Name
            </Text>
            <TextField.Root value={name} onChange={(e) => setName(e.target.value)} maxLength={80} required placeholder="e.g. Growth team" />
          </label>
          {error && (
            <Text as="p" role="alert" size="2" color="red" mt="2">
              {error}
            </Text>
          )}
          <Flex gap="3" mt="4" justify="end">
            <Dialog.Close>
              <Button type="button" variant="soft" color="gray">
                Cancel
              </Button>
            </Dialog.Close>
            <Button type="submit" loading={busy} disabled={!name.trim()}>
              Create workspace
            </Button>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/**
 * The shell's workspace switcher: the current workspace and your role in it; the menu lists every
 * workspace you belong to and makes a new one. Switching is remembered (by the server and this browser).
 */
export function WorkspaceSwitcher({ current, list, state, collapsed, onSwitch, onCreate }: WorkspaceSwitcherProps) {
  const [creating, setCreating] = useState(false);
  const [switching, setSwitching] = useState<string | null>(null);
  const name = current?.name ?? (state === "unavailable" ? "Workspaces unavailable" : "Loading workspace...");

  async function pick(id: string) {
    const target = list.find((w) => w.id === id);
    if (!target || target.id === current?.id) return;
    setSwitching(id);
    try {
      await onSwitch(target);
    } finally {
      setSwitching(null);
    }
  }

  // Named by what it shows (the visible text is part of the name), after what it does.
  const trigger = (
    <button
      type="button"
      className="di-workspace-trigger"
      aria-busy={switching !== null || undefined}
      disabled={state === "loading" && !current}
    >
      <span className="di-visually-hidden">Switch workspace: </span>
      <span className="di-workspace-mark" aria-hidden>
        {current ? initial(current.name) : "·"}
      </span>
      <span className="di-collapsible di-workspace-text">
        <Text size="2" weight="medium" truncate>
          {name}
        </Text>
        {current && (
          <Text size="1" color="gray" truncate>
            <span className="di-visually-hidden">, </span>
            {current.personal ? "Just you" : `Team · ${ROLE_LABEL[current.role]}`}
          </Text>
        )}
      </span>
      <span className="di-collapsible di-workspace-caret" aria-hidden>
        <CaretSortIcon />
      </span>
    </button>
  );

  return (
    <>
      <DropdownMenu.Root>
        {collapsed ? (
          <Tooltip content={current ? `${current.name} · switch workspace` : "Switch workspace"} side="right">
            <DropdownMenu.Trigger>{trigger}</DropdownMenu.Trigger>
          </Tooltip>
        ) : (
          <DropdownMenu.Trigger>{trigger}</DropdownMenu.Trigger>
        )}
        <DropdownMenu.Content align="start" side="bottom" className="di-workspace-menu" variant="soft">
          <DropdownMenu.Label>Workspaces</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={current?.id ?? ""} onValueChange={(id) => void pick(id)}>
            {list.map((w) => (
              <DropdownMenu.RadioItem key={w.id} value={w.id}>
                <Flex align="center" justify="between" gap="3" width="100%">
                  <Text truncate>{labelOf(w)}</Text>
                  <Text size="1" color="gray">
                    <span className="di-visually-hidden">, </span>
                    {ROLE_LABEL[w.role]}
                  </Text>
                </Flex>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          {state === "unavailable" && (
            <DropdownMenu.Item disabled>
              <Text size="1" color="red">
                Couldn't load your workspaces
              </Text>
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Separator />
          <DropdownMenu.Item onSelect={() => setCreating(true)}>
            <PlusIcon /> New workspace
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Root>
      <NewWorkspaceDialog open={creating} onOpenChange={setCreating} onCreate={onCreate} />
    </>
  );
}
