import "../workspaces.css";
import { Badge, Button, Card, Flex, Heading, Select, Skeleton, Table, Text } from "@radix-ui/themes";
import { useCallback, useEffect, useState } from "react";
import { ConfirmDialog } from "#web/components/ui/confirm-dialog";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { formatDateTime } from "#web/lib/format";
import { type CurrentWorkspace, type WorkspaceRole, hasRole } from "#web/lib/workspace";
import { type MemberView, changeRole, listMembers, removeMember } from "../api";
import { ROLE_HINT, ROLE_LABEL } from "../roles";
import { AlertsSwitch } from "./alerts-switch";

const ROLES_BELOW_OWNER: WorkspaceRole[] = ["viewer", "editor", "admin"];
const ALL_ROLES: WorkspaceRole[] = [...ROLES_BELOW_OWNER, "owner"];
const ROLE_COLOR: Record<WorkspaceRole, "violet" | "blue" | "green" | "gray"> = {
  owner: "violet",
  admin: "blue",
  editor: "green",
  viewer: "gray",
};

const nameOf = (m: MemberView) => m.username || m.email;

export interface MembersPanelProps {
  workspace: CurrentWorkspace;
  /** The signed-in user's id: their own row offers Leave. */
  userId: string;
  /** After leaving: the workspace is no longer yours, so the app moves elsewhere. */
  onLeft(): void;
}

/**
 * Settings → Members: who belongs to the current workspace and with which role. Admins and owners
 * change roles and remove members (only an owner touches an owner or makes one); everyone may leave
 * a team workspace; viewers and editors see the list read-only. Your own row carries your alerts
 * opt-in (only you change yours).
 */
export function MembersPanel({ workspace, userId, onLeft }: MembersPanelProps) {
  const [members, setMembers] = useState<MemberView[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<MemberView | null>(null);
  const myRole = workspace.role;
  const canManage = hasRole(myRole, "admin");

  const load = useCallback(() => {
    setFailed(false);
    listMembers(workspace.id)
      .then(setMembers)
      .catch(() => setFailed(true));
  }, [workspace.id]);
  useEffect(load, [load]);

  const owners = members?.filter((m) => m.role === "owner").length ?? 0;
  const mayTouch = (m: MemberView) => canManage && m.userId !== userId && (m.role !== "owner" || myRole === "owner");

  async function setRole(m: MemberView, role: WorkspaceRole) {
    if (role === m.role) return;
    setBusy(m.userId);
    try {
      const updated = await changeRole(workspace.id, m.userId, role);
      setMembers((list) => list?.map((x) => (x.userId === m.userId ? { ...x, ...updated } : x)) ?? list);
      toast({ title: "Role Changed", description: `${nameOf(m)} is now ${ROLE_LABEL[role].toLowerCase()}.` });
    } catch (err) {
      toast({ title: "Role Not Changed", description: errorMessage(err, "Could not change the role."), variant: "destructive" });
    } finally {
      setBusy(null);
    }
  }

  async function remove(m: MemberView) {
    const leaving = m.userId === userId;
    setBusy(m.userId);
    try {
      await removeMember(workspace.id, m.userId);
      if (leaving) {
        toast({ title: "You Left the Workspace", description: `You are no longer a member of ${workspace.name}.` });
        onLeft();
        return;
      }
      setMembers((list) => list?.filter((x) => x.userId !== m.userId) ?? list);
      toast({ title: "Member Removed", description: `${nameOf(m)} no longer has access; their API keys for it stopped working.` });
    } catch (err) {
      toast({
        title: leaving ? "Could Not Leave" : "Member Not Removed",
        description: errorMessage(err, "Please try again."),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  return (
    <Card size="3" data-testid="members-panel">
      <Heading as="h2" size="4" mb="1" id="members-heading">
        Members
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        {canManage
          ? `Who works in ${workspace.name}. Admins change roles and remove members; only an owner changes an owner.`
          : `Who works in ${workspace.name}. Your role is ${ROLE_LABEL[myRole].toLowerCase()}: ask an admin to change roles.`}
      </Text>
      {failed ? (
        <Flex align="center" gap="2">
          <Text size="2" color="red">
            Couldn't load the members.
          </Text>
          <Button size="1" variant="soft" onClick={load}>
            Try again
          </Button>
        </Flex>
      ) : members === null ? (
        <Flex direction="column" gap="2" aria-busy>
          <Skeleton height="28px" />
          <Skeleton height="28px" />
        </Flex>
      ) : (
        <Table.Root size="1" variant="surface" role="region" aria-labelledby="members-heading">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Member</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Role</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell className="di-wide-only">Joined</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>
                <span className="di-visually-hidden">Actions</span>
              </Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {members.map((m) => {
              const me = m.userId === userId;
              const lastOwner = me && m.role === "owner" && owners <= 1;
              return (
                <Table.Row key={m.userId} data-testid="member-row" aria-label={nameOf(m)}>
                  <Table.RowHeaderCell>
                    <Flex direction="column" className="di-member-name">
                      <Text size="2" weight="medium">
                        {nameOf(m)}
                        {me && " (you)"}
                      </Text>
                      {m.username && (
                        <Text size="1" color="gray">
                          {m.email}
                        </Text>
                      )}
                      <Text size="1" color="gray" className="di-narrow-only">
                        Joined {formatDateTime(m.joinedAt)}
                      </Text>
                      {me && (
                        <Flex mt="2">
                          <AlertsSwitch
                            workspaceId={workspace.id}
                            userId={userId}
                            checked={m.alerts}
                            onChange={(alerts) =>
                              setMembers((list) => list?.map((x) => (x.userId === userId ? { ...x, alerts } : x)) ?? list)
                            }
                          />
                        </Flex>
                      )}
                    </Flex>
                  </Table.RowHeaderCell>
                  <Table.Cell>
                    {mayTouch(m) ? (
                      <Select.Root
                        size="1"
                        value={m.role}
                        disabled={busy === m.userId}
                        onValueChange={(v) => void setRole(m, v as WorkspaceRole)}
                      >
                        {/* The name includes the role it shows: the visible text is part of it. */}
                        <Select.Trigger aria-label={`Role of ${nameOf(m)}: ${ROLE_LABEL[m.role]}`} />
                        <Select.Content position="popper">
                          {(myRole === "owner" ? ALL_ROLES : ROLES_BELOW_OWNER).map((r) => (
                            <Select.Item key={r} value={r}>
                              {ROLE_LABEL[r]}
                            </Select.Item>
                          ))}
                        </Select.Content>
                      </Select.Root>
                    ) : (
                      <Badge color={ROLE_COLOR[m.role]} variant="soft" title={ROLE_HINT[m.role]}>
                        {ROLE_LABEL[m.role]}
                      </Badge>
                    )}
                  </Table.Cell>
                  <Table.Cell className="di-wide-only">
                    <Text size="1" color="gray">
                      {formatDateTime(m.joinedAt)}
                    </Text>
                  </Table.Cell>
                  <Table.Cell justify="end">
                    {me && !workspace.personal ? (
                      <Button
                        size="1"
                        color="red"
                        variant="soft"
                        disabled={lastOwner || busy === m.userId}
                        title={lastOwner ? "Make another member owner first" : undefined}
                        onClick={() => setConfirm(m)}
                      >
                        Leave
                      </Button>
                    ) : mayTouch(m) ? (
                      <Button
                        size="1"
                        color="red"
                        variant="soft"
                        loading={busy === m.userId}
                        onClick={() => setConfirm(m)}
                        aria-label={`Remove ${nameOf(m)}`}
                      >
                        Remove
                      </Button>
                    ) : null}
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
      )}
      <ConfirmDialog
        open={confirm !== null}
        onCancel={() => setConfirm(null)}
        title={confirm?.userId === userId ? `Leave ${workspace.name}?` : `Remove ${confirm ? nameOf(confirm) : ""}?`}
        description={
          confirm?.userId === userId
            ? "You lose access to its comparisons at once; an admin can invite you again."
            : "They lose access at once, and their API keys for this workspace stop working."
        }
        action={confirm?.userId === userId ? "Leave" : "Remove"}
        onConfirm={() => {
          const m = confirm;
          setConfirm(null);
          if (m) void remove(m);
        }}
      />
    </Card>
  );
}
