import { Button, Callout, Dialog, Flex, IconButton, Table, Text, TextField } from "@radix-ui/themes";
import { ExclamationTriangleIcon, LockClosedIcon, TrashIcon } from "@radix-ui/react-icons";
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { CloseFooter } from "#web/components/ui/close-footer";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { formatDateTime } from "#web/lib/format";
import { deleteSecret, listSecrets, putSecret, type SecretView } from "../api";

const NAME = /^[a-z][a-z0-9_-]{0,39}$/;

interface Props {
  targetId: string;
  label: string;
  onClose(): void;
}

/**
 * A site's secrets: their names and when they were set, a value set (typed into a password field
 * and cleared once sent) or removed. A value is never shown: the API never answers one.
 */
export function SecretsPanel({ targetId, label, onClose }: Props) {
  const ids = useId();
  const [list, setList] = useState<SecretView[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const reload = useCallback(async () => {
    try {
      setList(await listSecrets(targetId));
      setLoadError(null);
    } catch (err) {
      setLoadError(errorMessage(err, "Couldn't load this site's secrets."));
    }
  }, [targetId]);
  useEffect(() => void reload(), [reload]);

  async function save(e: FormEvent) {
    e.preventDefault();
    const n = name.trim();
    if (!NAME.test(n))
      return setFormError("A name starts with a lowercase letter and holds only a-z, 0-9, _ and - (40 characters at most)");
    if (!value) return setFormError("Enter the value");
    setFormError(null);
    setSaving(true);
    try {
      await putSecret(targetId, n, value);
      setName("");
      setValue("");
      toast({ title: "Secret Saved", description: `Steps use it as {{secret:${n}}}.` });
      await reload();
    } catch (err) {
      setFormError(errorMessage(err, "Unable to save the secret. Please try again."));
    } finally {
      setSaving(false);
    }
  }

  async function remove(n: string) {
    try {
      await deleteSecret(targetId, n);
      await reload();
    } catch (err) {
      toast({ title: "Delete Failed", description: errorMessage(err, "Unable to delete the secret."), variant: "destructive" });
    }
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Content maxWidth="640px">
        <Dialog.Title>Secrets of {label}</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Passwords and tokens the steps type in as {"{{secret:name}}"}, only ever on this site. Kept encrypted; a value is never shown
          again.
        </Dialog.Description>
        {loadError && (
          <Callout.Root color="red" size="1" mb="3">
            <Callout.Icon>
              <ExclamationTriangleIcon />
            </Callout.Icon>
            <Callout.Text>{loadError}</Callout.Text>
          </Callout.Root>
        )}
        {list && list.length === 0 && (
          <Text as="p" size="2" color="gray" mb="3">
            No secrets yet.
          </Text>
        )}
        {list && list.length > 0 && (
          <Table.Root size="1" mb="3" data-testid="secrets-list">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Updated</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>
                  <span className="di-visually-hidden">Delete</span>
                </Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {list.map((s) => (
                <Table.Row key={s.name} align="center">
                  <Table.RowHeaderCell>
                    <Text style={{ fontFamily: "var(--code-font-family)" }}>{s.name}</Text>
                  </Table.RowHeaderCell>
                  <Table.Cell>{formatDateTime(s.updatedAt)}</Table.Cell>
                  <Table.Cell>
                    <IconButton
                      size="1"
                      variant="ghost"
                      color="red"
                      aria-label={`Delete secret ${s.name}`}
                      onClick={() => void remove(s.name)}
                    >
                      <TrashIcon />
                    </IconButton>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
        <form onSubmit={save} noValidate aria-label="Set a secret">
          <Flex gap="2" align="end" wrap="wrap">
            <Flex direction="column" gap="1" style={{ flex: "1 1 160px" }}>
              <Text as="label" size="2" htmlFor={`${ids}-name`}>
                Name
              </Text>
              <TextField.Root
                id={`${ids}-name`}
                value={name}
                placeholder="password"
                autoComplete="off"
                onChange={(e) => setName(e.target.value)}
              />
            </Flex>
            <Flex direction="column" gap="1" style={{ flex: "2 1 200px" }}>
              <Text as="label" size="2" htmlFor={`${ids}-value`}>
                Value
              </Text>
              <TextField.Root
                id={`${ids}-value`}
                type="password"
                value={value}
                autoComplete="new-password"
                onChange={(e) => setValue(e.target.value)}
              >
                <TextField.Slot>
                  <LockClosedIcon />
                </TextField.Slot>
              </TextField.Root>
            </Flex>
            <Button type="submit" loading={saving}>
              Set secret
            </Button>
          </Flex>
          {formError && (
            <Text as="p" size="1" color="red" role="alert" mt="1" mb="0">
              {formError}
            </Text>
          )}
        </form>
        <CloseFooter />
      </Dialog.Content>
    </Dialog.Root>
  );
}
