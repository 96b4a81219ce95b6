import { Badge, Button, Card, DataList, Flex, Heading, Select, Separator, Text, TextField } from "@radix-ui/themes";
import { type FormEvent, useEffect, useState } from "react";
import { ConfirmDialog } from "#web/components/ui/confirm-dialog";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import type { CurrentWorkspace } from "#web/lib/workspace";
import { type MemberView, listMembers } from "../api";
import { ROLE_HINT, ROLE_LABEL } from "../roles";
import { deleteAndMoveOn, handOverAndShow, renameAndShow } from "../store";
import { AlertsSwitch } from "./alerts-switch";

const nameOf = (m: MemberView) => m.username || m.email;

/**
 * Settings: the workspace on screen and what your role in it lets you do. An owner of a team
 * workspace renames it, hands it over to a member and deletes it; everyone else reads its name. In a
 * personal workspace your alerts opt-in is here (a team workspace has it on your member entry).
 */
export function WorkspaceCard({ workspace, userId }: { workspace: CurrentWorkspace; userId: string }) {
  const owner = workspace.role === "owner" && !workspace.personal;
  const [members, setMembers] = useState<MemberView[] | null>(null);

  // The personal workspace's only member entry is yours (its alerts); an owner hands over to a member.
  const needsMembers = workspace.personal || owner;
  useEffect(() => {
    if (!needsMembers) return;
    let live = true;
    listMembers(workspace.id)
      .then((m) => live && setMembers(m))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [workspace.id, workspace.role, needsMembers]);
  const me = members?.find((m) => m.userId === userId);

  return (
    <Card size="3" data-testid="workspace-card">
      <Heading as="h2" size="4" mb="1">
        Workspace
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        {workspace.personal
          ? "Your personal workspace is yours alone. To work with others, make a team workspace from the switcher in the sidebar and invite them here."
          : "Everything you see in the app belongs to this workspace. Switch workspaces from the sidebar."}
      </Text>
      <DataList.Root>
        <DataList.Item align="center">
          <DataList.Label>Name</DataList.Label>
          <DataList.Value>{owner ? <RenameForm key={workspace.name} workspace={workspace} /> : workspace.name}</DataList.Value>
        </DataList.Item>
        <DataList.Item align="center">
          <DataList.Label>Your role</DataList.Label>
          <DataList.Value>
            <Badge variant="soft" color={workspace.role === "viewer" ? "gray" : "violet"}>
              {ROLE_LABEL[workspace.role]}
            </Badge>
            <Text size="1" color="gray" ml="2">
              {ROLE_HINT[workspace.role]}
            </Text>
          </DataList.Value>
        </DataList.Item>
        {workspace.personal && me && (
          <DataList.Item>
            <DataList.Label>Alerts</DataList.Label>
            <DataList.Value>
              <AlertsSwitch
                workspaceId={workspace.id}
                userId={userId}
                checked={me.alerts}
                onChange={(alerts) => setMembers((list) => list?.map((m) => (m.userId === userId ? { ...m, alerts } : m)) ?? list)}
              />
            </DataList.Value>
          </DataList.Item>
        )}
      </DataList.Root>
      {owner && <OwnerControls workspace={workspace} members={(members ?? []).filter((m) => m.userId !== userId)} />}
    </Card>
  );
}

function RenameForm({ workspace }: { workspace: CurrentWorkspace }) {
  const [name, setName] = useState(workspace.name);
  const [busy, setBusy] = useState(false);
  const trimmed = name.trim();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!trimmed || trimmed === workspace.name || busy) return;
    setBusy(true);
    try {
      const w = await renameAndShow(workspace.id, trimmed);
      toast({ title: "Workspace Renamed", description: `This workspace is now called ${w.name}.` });
    } catch (err) {
      toast({ title: "Workspace Not Renamed", description: errorMessage(err, "Could not rename the workspace."), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} style={{ width: "100%" }}>
      <Flex gap="2" align="center" wrap="wrap">
        <TextField.Root
          size="2"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={80}
          required
          aria-label="Workspace name"
          style={{ flex: "1 1 180px" }}
        />
        <Button type="submit" size="2" variant="soft" loading={busy} disabled={!trimmed || trimmed === workspace.name}>
          Rename
        </Button>
      </Flex>
    </form>
  );
}

function OwnerControls({ workspace, members }: { workspace: CurrentWorkspace; members: MemberView[] }) {
  const [heir, setHeir] = useState<string>("");
  const [asking, setAsking] = useState<"hand-over" | "delete" | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = members.find((m) => m.userId === heir);

  async function handOver() {
    if (!chosen) return;
    setBusy(true);
    try {
      await handOverAndShow(workspace.id, chosen.userId);
      toast({ title: "Workspace Handed Over", description: `${nameOf(chosen)} now owns ${workspace.name}; you stay on as admin.` });
    } catch (err) {
      toast({ title: "Not Handed Over", description: errorMessage(err, "Could not hand the workspace over."), variant: "destructive" });
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      await deleteAndMoveOn(workspace.id);
      toast({ title: "Workspace Deleted", description: `${workspace.name} and everything in it are gone.` });
    } catch (err) {
      toast({ title: "Workspace Not Deleted", description: errorMessage(err, "Could not delete the workspace."), variant: "destructive" });
      setBusy(false);
    }
  }

  return (
    <Flex direction="column" gap="3" mt="4" data-testid="owner-controls">
      <Separator size="4" />
      <Flex direction="column" gap="2">
        <Text as="div" size="2" weight="medium" id="hand-over-heading">
          Hand over
        </Text>
        <Text as="p" size="1" color="gray">
          Make another member the owner. You stay on as admin.
        </Text>
        {members.length === 0 ? (
          <Text size="2" color="gray">
            Invite someone first: only a member can take it over.
          </Text>
        ) : (
          <Flex gap="2" align="center" wrap="wrap">
            <Select.Root value={heir} onValueChange={setHeir} disabled={busy}>
              <Select.Trigger placeholder="Choose a member" aria-label="New owner" style={{ minWidth: 200 }} />
              <Select.Content position="popper">
                {members.map((m) => (
                  <Select.Item key={m.userId} value={m.userId}>
                    {nameOf(m)}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
            <Button variant="soft" disabled={!chosen || busy} onClick={() => setAsking("hand-over")}>
              Hand over
            </Button>
          </Flex>
        )}
      </Flex>
      <Separator size="4" />
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Flex direction="column">
          <Text size="2" weight="medium">
            Delete workspace
          </Text>
          <Text size="1" color="gray">
            Deletes its comparisons, schedules, alert rules, share links, API keys and invitations.
          </Text>
        </Flex>
        <Button color="red" variant="soft" disabled={busy} onClick={() => setAsking("delete")}>
          Delete workspace
        </Button>
      </Flex>
      <ConfirmDialog
        open={asking === "hand-over"}
        onCancel={() => setAsking(null)}
        title={`Hand ${workspace.name} over to ${chosen ? nameOf(chosen) : ""}?`}
        description="They become its owner; you stay on as admin and can no longer rename, delete or hand it over."
        action="Hand over"
        onConfirm={() => {
          setAsking(null);
          void handOver();
        }}
      />
      <ConfirmDialog
        open={asking === "delete"}
        onCancel={() => setAsking(null)}
        title={`Delete ${workspace.name}?`}
        description={`Everything in ${workspace.name} is deleted for every member: its comparisons with their runs and screenshots, schedules, alert rules, share links, API keys, invitations and audit. Runs under way are cancelled. This cannot be undone.`}
        action="Delete workspace"
        onConfirm={() => {
          setAsking(null);
          void remove();
        }}
      />
    </Flex>
  );
}
