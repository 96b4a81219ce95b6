import { Badge, Button, Dialog, Flex, Table, Text } from "@radix-ui/themes";
import { useState } from "react";
import type { ManagedUser, UpdateUserInput, UserPage } from "#server/modules/users/model";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { listUsers, updateUser } from "../api";
import { formatDateTime } from "../format";
import { usePagedSearch } from "../use-paged-search";
import { Pager } from "#web/components/ui/pager";
import { Loaded } from "./loaded";
import { CloseFooter } from "#web/components/ui/close-footer";
import { ConfirmDialog } from "#web/components/ui/confirm-dialog";
import { SearchField } from "./search-field";

interface Pending {
  user: ManagedUser;
  patch: UpdateUserInput;
  title: string;
  body: string;
}

export function UsersDialog({
  open,
  onOpenChange,
  currentUserId,
}: {
  open: boolean;
  onOpenChange(o: boolean): void;
  currentUserId: string;
}) {
  const { setPage, query, setQuery, data, setData, failed } = usePagedSearch<UserPage>(listUsers, "Could not load users", open);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Pending | null>(null);

  async function apply(user: ManagedUser, patch: UpdateUserInput) {
    setBusy(user.id);
    try {
      const updated = await updateUser(user.id, patch);
      setData((d) => (d ? { ...d, users: d.users.map((u) => (u.id === updated.id ? updated : u)) } : d));
      toast({
        title: "User Updated",
        description: `${updated.email} is now ${updated.disabled ? "disabled" : "enabled"} (${updated.role}).`,
      });
    } catch (e) {
      toast({ title: "Update Failed", description: errorMessage(e, "Unable to update this user."), variant: "destructive" });
    } finally {
      setBusy(null);
    }
  }

  const ask = (user: ManagedUser, patch: UpdateUserInput) => {
    if (patch.disabled === true)
      setConfirm({
        user,
        patch,
        title: "Disable this account?",
        body: `${user.email} is signed out everywhere at once and cannot sign in until enabled again. Their API keys are revoked.`,
      });
    else if (patch.role === "user")
      setConfirm({
        user,
        patch,
        title: "Remove admin rights?",
        body: `${user.email} loses the admin console on their next request and is signed out of every session.`,
      });
    else void apply(user, patch);
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="860px">
        <Dialog.Title>Manage Users</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Disable, enable, promote or demote. Changes apply on the user's very next request.
        </Dialog.Description>
        <SearchField label="Search users" placeholder="Search by e-mail or name" value={query} onChange={setQuery} />
        <Loaded failed={failed} data={data} loading="Loading users…">
          {(data) => (
            <>
              <Table.Root size="1" variant="surface" data-testid="users-table">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeaderCell>User</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Role</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Last sign-in</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Actions</Table.ColumnHeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {data.users.map((u) => {
                    const self = u.id === currentUserId;
                    return (
                      <Table.Row key={u.id} data-email={u.email}>
                        <Table.RowHeaderCell>
                          <Text size="2" weight="medium" style={{ overflowWrap: "anywhere" }}>
                            {u.email}
                          </Text>
                          {u.username && (
                            <Text as="p" size="1" color="gray">
                              {u.username}
                            </Text>
                          )}
                        </Table.RowHeaderCell>
                        <Table.Cell>
                          <Badge color={u.role === "admin" ? "violet" : "gray"} highContrast>
                            {u.role === "admin" ? "Admin" : "User"}
                          </Badge>
                        </Table.Cell>
                        <Table.Cell>
                          <Badge color={u.disabled ? "red" : "green"} highContrast>
                            {u.disabled ? "Disabled" : "Active"}
                          </Badge>
                        </Table.Cell>
                        <Table.Cell>
                          <Text size="1">{formatDateTime(u.lastSignInAt)}</Text>
                        </Table.Cell>
                        <Table.Cell>
                          {self ? (
                            <Text size="1" color="gray">
                              That's you
                            </Text>
                          ) : (
                            <Flex gap="2" wrap="wrap">
                              <Button
                                size="1"
                                variant="soft"
                                color={u.disabled ? "green" : "red"}
                                disabled={busy === u.id}
                                onClick={() => ask(u, { disabled: !u.disabled })}
                                aria-label={`${u.disabled ? "Enable" : "Disable"} ${u.email}`}
                              >
                                {u.disabled ? "Enable" : "Disable"}
                              </Button>
                              <Button
                                size="1"
                                variant="soft"
                                disabled={busy === u.id}
                                onClick={() => ask(u, { role: u.role === "admin" ? "user" : "admin" })}
                                aria-label={`${u.role === "admin" ? "Demote" : "Promote"} ${u.email}`}
                              >
                                {u.role === "admin" ? "Demote" : "Promote"}
                              </Button>
                            </Flex>
                          )}
                        </Table.Cell>
                      </Table.Row>
                    );
                  })}
                </Table.Body>
              </Table.Root>
              <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />
            </>
          )}
        </Loaded>
        <CloseFooter />
      </Dialog.Content>
      <ConfirmDialog
        open={confirm !== null}
        onCancel={() => setConfirm(null)}
        title={confirm?.title}
        description={confirm?.body}
        action="Confirm"
        onConfirm={() => {
          if (confirm) void apply(confirm.user, confirm.patch);
        }}
      />
    </Dialog.Root>
  );
}
