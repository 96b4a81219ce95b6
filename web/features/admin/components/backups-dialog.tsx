import { Button, Dialog, Table, Text } from "@radix-ui/themes";
import { useCallback, useState } from "react";
import type { BackupInfo } from "#server/modules/admin/model";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { type BearerSource, downloadBackup, listBackups } from "../api";
import { formatBytes, formatDateTime } from "../format";
import { useConsoleList } from "../use-console-list";
import { Loaded } from "./loaded";
import { CloseFooter } from "#web/components/ui/close-footer";

interface Props {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Bumped after a new backup so an open list re-reads. */
  version: number;
  auth: BearerSource;
}

export function BackupsDialog({ open, onOpenChange, version, auth }: Props) {
  // A new version means a new backup: the list is read again.
  const load = useCallback(() => listBackups(), [version]);
  const { data: backups, failed } = useConsoleList<BackupInfo[]>(load, "Could not list backups", { enabled: open });
  const [downloading, setDownloading] = useState<string | null>(null);

  async function download(name: string) {
    setDownloading(name);
    try {
      const blob = await downloadBackup(name, auth);
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      toast({ title: "Download Failed", description: errorMessage(e, "Could not download the backup."), variant: "destructive" });
    } finally {
      setDownloading(null);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="640px">
        <Dialog.Title>Backups</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Verified copies of the database, newest first. Restoring one is described in docs/operations.md.
        </Dialog.Description>
        <Loaded
          failed={failed}
          data={backups}
          loading="Loading backups…"
          empty="No backups yet. Hit Backup Now to make the first one."
          isEmpty={(list) => list.length === 0}
        >
          {(backups) => (
            <Table.Root size="1" variant="surface" data-testid="backup-list">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>File</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Taken</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Size</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>
                    <span className="di-visually-hidden">Download</span>
                  </Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {backups.map((b) => (
                  <Table.Row key={b.name}>
                    <Table.RowHeaderCell>
                      <Text size="1" style={{ fontFamily: "var(--code-font-family)" }}>
                        {b.name}
                      </Text>
                    </Table.RowHeaderCell>
                    <Table.Cell>{formatDateTime(b.createdAt)}</Table.Cell>
                    <Table.Cell>{formatBytes(b.size)}</Table.Cell>
                    <Table.Cell>
                      <Button
                        size="1"
                        variant="soft"
                        loading={downloading === b.name}
                        onClick={() => void download(b.name)}
                        aria-label={`Download ${b.name}`}
                      >
                        Download
                      </Button>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </Loaded>
        <CloseFooter />
      </Dialog.Content>
    </Dialog.Root>
  );
}
