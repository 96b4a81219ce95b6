import { Button, Callout, Card, Flex, Heading, Select, Spinner, Text } from "@radix-ui/themes";
import { type FormEvent, useEffect, useState } from "react";
import type { CurrentWorkspace, SsoNewcomers, SsoNewcomersView } from "#server/modules/workspaces/model";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { getSsoNewcomers, listOwnWorkspaces, saveSsoNewcomers } from "../api";

const NONE = "none";
const ROLES: { value: SsoNewcomers["role"]; label: string }[] = [
  { value: "viewer", label: "Viewer" },
  { value: "editor", label: "Editor" },
  { value: "admin", label: "Admin" },
];

/**
 * Where people signing in through single sign-on for the first time land: a team workspace and a
 * role, besides their personal workspace; None gives them only their personal one. The choices are
 * the team workspaces this admin belongs to, and the one chosen before.
 */
export function SsoNewcomersCard() {
  const [view, setView] = useState<SsoNewcomersView | null>(null);
  const [teams, setTeams] = useState<CurrentWorkspace[]>([]);
  const [workspaceId, setWorkspaceId] = useState(NONE);
  const [role, setRole] = useState<SsoNewcomers["role"]>("viewer");
  const [failed, setFailed] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    getSsoNewcomers()
      .then((v) => {
        setView(v);
        setWorkspaceId(v.workspaceId ?? NONE);
        setRole(v.role);
      })
      .catch((e) => setFailed(errorMessage(e, "Could not load the SSO newcomers setting")));
    listOwnWorkspaces()
      .then((list) => setTeams(list.filter((w) => !w.personal)))
      .catch(() => {});
  }, []);

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    try {
      const saved = await saveSsoNewcomers({ workspaceId: workspaceId === NONE ? null : workspaceId, role });
      setView(saved);
      setWorkspaceId(saved.workspaceId ?? NONE);
      setRole(saved.role);
      toast({
        title: "SSO Newcomers Saved",
        description: saved.workspaceName
          ? `People signing in through SSO for the first time join ${saved.workspaceName} as ${saved.role}.`
          : "People signing in through SSO for the first time get only their personal workspace.",
      });
    } catch (err) {
      toast({ title: "Save Failed", description: errorMessage(err, "Unable to save the SSO newcomers setting."), variant: "destructive" });
    } finally {
      setSaving(false);
    }
  }

  const choices = [...teams];
  if (view?.workspaceId && view.workspaceName && !choices.some((w) => w.id === view.workspaceId))
    choices.push({ id: view.workspaceId, name: view.workspaceName, role: "viewer", personal: false });

  return (
    <Card data-testid="sso-newcomers-card">
      <Heading as="h3" size="3" mb="1">
        SSO Newcomers
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        Which team workspace, and with which role, people join the first time they sign in through single sign-on, besides their personal
        workspace. Later sign-ins change nothing.
      </Text>
      {failed ? (
        <Callout.Root color="red">
          <Callout.Text>{failed}</Callout.Text>
        </Callout.Root>
      ) : !view ? (
        <Flex align="center" gap="2">
          <Spinner /> <Text size="2">Loading…</Text>
        </Flex>
      ) : (
        <form onSubmit={save}>
          <Flex gap="3" align="end" wrap="wrap">
            <Flex direction="column" gap="1">
              <Text size="2" weight="medium" id="sso-workspace-label">
                Workspace
              </Text>
              <Select.Root value={workspaceId} onValueChange={setWorkspaceId}>
                <Select.Trigger aria-labelledby="sso-workspace-label" style={{ minWidth: 220 }} />
                <Select.Content position="popper">
                  <Select.Item value={NONE}>None (personal workspace only)</Select.Item>
                  {choices.map((w) => (
                    <Select.Item key={w.id} value={w.id}>
                      {w.name}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </Flex>
            <Flex direction="column" gap="1">
              <Text size="2" weight="medium" id="sso-role-label">
                Role
              </Text>
              <Select.Root value={role} onValueChange={(v) => setRole(v as SsoNewcomers["role"])} disabled={workspaceId === NONE}>
                <Select.Trigger aria-labelledby="sso-role-label" style={{ minWidth: 120 }} />
                <Select.Content position="popper">
                  {ROLES.map((r) => (
                    <Select.Item key={r.value} value={r.value}>
                      {r.label}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
            </Flex>
            <Button type="submit" loading={saving}>
              Save SSO Newcomers
            </Button>
          </Flex>
          <Text as="p" size="1" color="gray" mt="2">
            The list shows the team workspaces you belong to.
          </Text>
        </form>
      )}
    </Card>
  );
}
