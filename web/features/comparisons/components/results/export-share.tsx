import { Button, DropdownMenu, Flex } from "@radix-ui/themes";
import { DownloadIcon } from "@radix-ui/react-icons";
import { type ReactNode, useState } from "react";
import { errorMessage } from "#web/lib/api";
import { toast } from "#web/components/ui/toast";
import { type BearerSource, fetchReport, type ReportFormat } from "../../api";

export function reportFileName(name: string, format: ReportFormat): string {
  const slug = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `design-intel-${slug || "comparison"}.${format}`;
}

function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // The click has started the download by the next tick; the URL can go after that.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

interface Props {
  comparisonId: string;
  name: string;
  auth: BearerSource;
  /** The Share control, beside Export (composed by the route from the share feature). */
  share?: ReactNode;
}

export function ExportShareButtons({ comparisonId, name, auth, share }: Props) {
  const [busy, setBusy] = useState<ReportFormat | null>(null);

  async function download(format: ReportFormat) {
    setBusy(format);
    try {
      saveBlob(await fetchReport(comparisonId, format, auth), reportFileName(name, format));
      toast({ title: "Report Exported", description: `Saved the ${format.toUpperCase()} report.` });
    } catch (err) {
      toast({
        title: "Export Failed",
        description: errorMessage(err, "Unable to export the report. Please try again."),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  return (
    <Flex gap="2">
      {share}
      <DropdownMenu.Root>
        <DropdownMenu.Trigger>
          <Button loading={busy !== null}>
            <DownloadIcon /> Export
            <DropdownMenu.TriggerIcon />
          </Button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Content align="end">
          <DropdownMenu.Item onSelect={() => void download("json")}>JSON report (data)</DropdownMenu.Item>
          <DropdownMenu.Item onSelect={() => void download("html")}>HTML report (self-contained)</DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Root>
    </Flex>
  );
}
