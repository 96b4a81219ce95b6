import { Button, DropdownMenu, Flex } from "@radix-ui/themes";
import { DownloadIcon, Share1Icon } from "@radix-ui/react-icons";
import { useState } from "react";
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

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API needs a secure context; a self-hosted http:// install falls back to execCommand.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const ok = document.execCommand?.("copy") ?? false;
    area.remove();
    return ok;
  }
}

interface Props {
  comparisonId: string;
  name: string;
  auth: BearerSource;
}

export function ExportShareButtons({ comparisonId, name, auth }: Props) {
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

  async function share() {
    const link = window.location.href;
    if (await copyText(link)) toast({ title: "Link Copied", description: "The results link is on your clipboard." });
    else toast({ title: "Copy Failed", description: link, variant: "destructive" });
  }

  return (
    <Flex gap="2">
      <Button variant="soft" onClick={() => void share()}>
        <Share1Icon /> Share
      </Button>
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
