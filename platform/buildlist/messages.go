package buildlist

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(map[string]i18n.Message{
		"client.builds-summary-full": {
			RU: "показано {shown} из {total} — нумерация идёт без пропусков: это все сборки проекта.",
			EN: "{shown} of {total} shown – the numbering runs unbroken: this is every build the project has.",
		},
		"client.builds-summary-trimmed": {
			RU: "показано {shown} из {total} — в нумерации есть пропуски: платформа сама удаляет неиспользуемые сборки, когда приложение применяет сборку. Это НЕ вся история сборок проекта.",
			EN: "{shown} of {total} shown – the numbering has gaps: the platform deletes unused builds whenever an application applies a build. This is NOT the project's whole build history.",
		},
		"client.builds-summary-trimmed-extension": {
			RU: "показано {shown} из {total} — в нумерации есть пропуски: у проекта-расширения нет автоматической очистки, значит, сборки удалены вручную. Это НЕ вся история сборок проекта.",
			EN: "{shown} of {total} shown – the numbering has gaps: an extension project has no housekeeping, so builds were deleted by hand. This is NOT the project's whole build history.",
		},
		"client.builds-summary-extension": {
			RU: " У проекта-расширения нет автоматической очистки: его сборки остаются, пока их не удалят вручную (elemctl builds delete).",
			EN: " An extension project has no housekeeping: its builds stay until deleted by hand (elemctl builds delete).",
		},
		"client.builds-summary-empty": {
			RU: "показано {shown} из {total} — у проекта нет сборок на платформе.",
			EN: "{shown} of {total} shown – the project has no builds on the platform.",
		},
		"client.builds-summary-unnumbered": {
			RU: "показано {shown} из {total} — ни у одной сборки нет номера, поэтому пропуски в истории не определить.",
			EN: "{shown} of {total} shown – no build carries a number, so gaps in the history cannot be judged.",
		},
		"client.builds-summary-jumped": {
			RU: "показано {shown} из {total} — пропавших сборок нет, в нумерации только скачки: это все сборки проекта.",
			EN: "{shown} of {total} shown – nothing is missing, the numbering only jumps: this is every build the project has.",
		},
		"client.builds-summary-jump": {
			RU: " Скачок {jumps} — не удаление: сборку, к которой он ведёт, эта машина загрузила без идентификатора проекта, поэтому платформа оставила ей номер из архива и продолжила счёт от него.",
			EN: " The jump {jumps} is no deletion: this machine uploaded the build it leads to without a project id, so the platform kept that build's archive number and counts on from it.",
		},
		"client.builds-summary-jumps": {
			RU: " Скачки {jumps} — не удаления: сборки, к которым они ведут, эта машина загрузила без идентификатора проекта, поэтому платформа оставила им номера из архивов и продолжила счёт от них.",
			EN: " The jumps {jumps} are no deletions: this machine uploaded the builds they lead to without a project id, so the platform kept their archive numbers and counts on from them.",
		},
		"client.builds-summary-jump-and-loss": {
			RU: " {jump} — скачок и удаление сразу: номера пропущены из-за загрузки без идентификатора проекта, но эта машина загружала в этот промежуток сборки, которых больше нет ({missing}).",
			EN: " {jump} is a jump and a deletion at once: the upload without a project id skipped numbers, but this machine uploaded builds into that range which are gone ({missing}).",
		},
		"client.builds-summary-gap-first": {
			RU: "пропали {versions}",
			EN: "missing: {versions}",
		},
		"client.builds-summary-and-more": {
			RU: " и ещё {count}",
			EN: " and {count} more",
		},
		"client.builds-cut": {
			RU: "список обрезан по --limit (сначала новые); --limit 0 показывает все сборки",
			EN: "the listing is cut by --limit (newest first); --limit 0 shows them all",
		},
	})
}
