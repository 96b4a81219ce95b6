import "../workspaces.css";
import { CopyIcon } from "@radix-ui/react-icons";
import { Badge, Box, Button, Callout, Card, Code, Flex, Heading, Select, Skeleton, Table, Text, TextField } from "@radix-ui/themes";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { copyText } from "#web/lib/clipboard";
import { formatDateTime } from "#web/lib/format";
import type { CurrentWorkspace } from "#web/lib/workspace";
import { type InvitationView, type InvitedRole, createInvitation, listInvitations, revokeInvitation } from "../api";
import { ROLE_HINT, ROLE_LABEL } from "../roles";

const INVITED_ROLES: InvitedRole[] = ["viewer", "editor", "admin"];
const STATE_BADGE: Record<InvitationView["state"], { label: string; color: "green" | "gray" | "amber" | "blue" }> = {
  pending: { label: "Open", color: "green" },
  accepted: { label: "Accepted", color: "blue" },
  expired: { label: "Expired", color: "amber" },
  revoked: { label: "Revoked", color: "gray" },
};

interface Fresh {
  url: string;
  role: InvitedRole;
  expiresAt: string;
  emailed: boolean;
  email: string | null;
}

/**
 * Settings → Invitations (admins and owners): a link for one person with the role they will get,
 * optionally e-mailed; the link shows once, to copy. The list shows every invitation's state, and
 * an open one can be revoked.
 */
export function InvitationsPanel({ workspace }: { workspace: CurrentWorkspace }) {
  const [role, setRole] = useState<InvitedRole>("viewer");
  const [email, setEmail] = useState("");
  const [creating, setCreating] = useState(false);
  const [fresh, setFresh] = useState<Fresh | null>(null);
  const [items, setItems] = useState<InvitationView[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [revoking, setRevoking] = useState<string | null>(null);

  const load = useCallback(() => {
    setFailed(false);
    listInvitations(workspace.id)
      .then(setItems)
      .catch(() => setFailed(true));
  }, [workspace.id]);
  useEffect(load, [load]);

  async function create(e: FormEvent) {
    e.preventDefault();
    if (creating) return;
    setCreating(true);
    const address = email.trim();
    try {
      const made = await createInvitation(workspace.id, role, address || undefined);
      setFresh({ url: made.url, role: made.role, expiresAt: made.expiresAt, emailed: made.emailed, email: address || null });
      setEmail("");
      load();
    } catch (err) {
      toast({
        title: "Invitation Not Created",
        description: errorMessage(err, "Could not create the invitation."),
        variant: "destructive",
      });
    } finally {
      setCreating(false);
    }
  }

  async function copy(url: string) {
    const ok = await copyText(url);
    toast(
      ok
        ? { title: "Link Copied", description: "Send it to the person you invite." }
        : { title: "Copy Failed", description: "Select the link and copy it.", variant: "destructive" },
    );
  }

  async function revoke(inv: InvitationView) {
    setRevoking(inv.id);
    try {
      await revokeInvitation(inv.id);
      setItems((list) => list?.map((x) => (x.id === inv.id ? { ...x, state: "revoked" } : x)) ?? list);
      toast({ title: "Invitation Revoked", description: "Its link no longer works." });
    } catch (err) {
      toast({ title: "Not Revoked", description: errorMessage(err, "Could not revoke the invitation."), variant: "destructive" });
    } finally {
      setRevoking(null);
    }
  }

  return (
    <Card size="3" data-testid="invitations-panel">
      <Heading as="h2" size="4" mb="1" id="invitations-heading">
        Invitations
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        A link lets one person join {workspace.name}. It works once and expires after 7 days.
      </Text>
      <form onSubmit={create} aria-labelledby="invitations-heading">
        <Flex gap="3" wrap="wrap" align="end" mb="3">
          <Flex direction="column" gap="1">
            <Text as="div" size="2" weight="medium" aria-hidden>
              Role
            </Text>
            <Select.Root value={role} onValueChange={(v) => setRole(v as InvitedRole)}>
              {/* Named with the value it shows: the visible text is part of the name. */}
              <Select.Trigger aria-label={`Role: ${ROLE_LABEL[role]}`} style={{ minWidth: 120 }} />
              <Select.Content position="popper">
                {INVITED_ROLES.map((r) => (
                  <Select.Item key={r} value={r}>
                    {ROLE_LABEL[r]}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
          <Flex direction="column" gap="1" style={{ flex: "1 1 220px" }}>
            <Text as="label" size="2" weight="medium" htmlFor="invite-email">
              Email (optional)
            </Text>
            <TextField.Root
              id="invite-email"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="teammate@yourcompany.com"
              maxLength={254}
            />
          </Flex>
          <Button type="submit" loading={creating}>
            Create invitation link
          </Button>
        </Flex>
        <Text as="p" size="1" color="gray" mb="3">
          {ROLE_LABEL[role]}: {ROLE_HINT[role].toLowerCase()}. With an email, the link is also sent there when the server can send mail.
        </Text>
      </form>

      {fresh && (
        <Callout.Root color="green" mb="3" data-testid="invitation-link">
          <Box>
            <Text as="p" size="2" weight="medium" mb="1">
              Invitation link for {fresh.email ?? "one person"} as {ROLE_LABEL[fresh.role].toLowerCase()}
              {fresh.emailed ? " (also e-mailed)" : ""}. It is shown only now.
            </Text>
            <Flex gap="2" align="center" wrap="wrap">
              <Code size="2" className="di-invite-url" aria-label="Invitation link">
                {fresh.url}
              </Code>
              <Button size="1" variant="soft" onClick={() => void copy(fresh.url)}>
                <CopyIcon /> Copy link
              </Button>
            </Flex>
            <Text as="p" size="1" color="gray" mt="1">
              Expires {formatDateTime(fresh.expiresAt)}.
            </Text>
          </Box>
        </Callout.Root>
      )}

      {failed ? (
        <Flex align="center" gap="2">
          <Text size="2" color="red">
            Couldn't load the invitations.
          </Text>
          <Button size="1" variant="soft" onClick={load}>
            Try again
          </Button>
        </Flex>
      ) : items === null ? (
        <Skeleton height="28px" />
      ) : items.length === 0 ? (
        <Text as="p" size="2" color="gray">
          No invitations yet.
        </Text>
      ) : (
        <Table.Root size="1" variant="surface" role="region" aria-label="Invitations">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>For</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Role</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>State</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell className="di-wide-only">Expires</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>
                <span className="di-visually-hidden">Actions</span>
              </Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {items.map((inv) => {
              const badge = STATE_BADGE[inv.state];
              return (
                <Table.Row key={inv.id} data-testid="invitation-row">
                  <Table.RowHeaderCell className="di-member-name">
                    <Text size="2">{inv.email ?? "Anyone with the link"}</Text>
                    {inv.acceptedBy && (
                      <Text as="div" size="1" color="gray">
                        Accepted by {inv.acceptedBy.email}
                      </Text>
                    )}
                    <Text as="div" size="1" color="gray" className="di-narrow-only">
                      Expires {formatDateTime(inv.expiresAt)}
                    </Text>
                  </Table.RowHeaderCell>
                  <Table.Cell>{ROLE_LABEL[inv.role]}</Table.Cell>
                  <Table.Cell>
                    <Badge color={badge.color} variant="soft">
                      {badge.label}
                    </Badge>
                  </Table.Cell>
                  <Table.Cell className="di-wide-only">
                    <Text size="1" color="gray">
                      {formatDateTime(inv.expiresAt)}
                    </Text>
                  </Table.Cell>
                  <Table.Cell justify="end">
                    {inv.state === "pending" && (
                      <Button
                        size="1"
                        color="red"
                        variant="soft"
                        loading={revoking === inv.id}
                        onClick={() => void revoke(inv)}
                        aria-label={`Revoke the invitation for ${inv.email ?? "anyone with the link"} created ${formatDateTime(inv.createdAt)}`}
                      >
                        Revoke
                      </Button>
                    )}
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
      )}
    </Card>
  );
}
