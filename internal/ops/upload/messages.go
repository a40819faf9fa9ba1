package upload

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(messages)
}

var messages = []i18n.Message{
	{Key: "upload.unreadable",
		RU: "не удалось прочитать файл сборки {path}: {error}",
		EN: "failed to read the build file {path}: {error}",
	},
	{Key: "upload.refused",
		RU: "{error}. Ничего не загружено: платформа принимает только архивы сборки (.xasm, .xlib), которые собирает elemctl build",
		EN: "{error}. Nothing was uploaded: the platform takes only build archives (.xasm, .xlib) as elemctl build makes them",
	},
	{Key: "upload.too-large",
		RU: "файл сборки {path} слишком велик: {size} байт, предел – {limit}. Ничего не загружено: архив сборки весит килобайты или мегабайты – проверьте, тот ли это файл",
		EN: "the build file {path} is too large: {size} bytes, the limit is {limit}. Nothing was uploaded: a build archive weighs kilobytes or megabytes – check that this is the right file",
	},
	{Key: "upload.rename-refused",
		RU: "проект {project} называется \"{name}\", а проект в архиве – \"{archive}\": загрузка переименует проект (консоль показывает проект под Представлением последней загруженной сборки). Загрузка отменена; чтобы загрузить всё равно, добавьте --force-rename, а чтобы платформа сама выбрала проект по Ид – --new-project",
		EN: "project {project} is called \"{name}\", the archive's project \"{archive}\": the upload would rename the project (the console shows a project under the Presentation of its last uploaded build). The upload is cancelled; to upload anyway add --force-rename, to let the platform pick the project by its Id use --new-project",
	},
	{Key: "upload.rename-forced",
		RU: "внимание: загрузка переименует проект {project} из \"{from}\" в \"{name}\" (--force-rename)",
		EN: "warning: the upload renames project {project} from \"{from}\" to \"{name}\" (--force-rename)",
	},
	{Key: "upload.landed-created",
		RU: "сборка создала новый проект \"{name}\" ({project})",
		EN: "the build created a new project \"{name}\" ({project})",
	},
	{Key: "upload.landed-existing",
		RU: "сборка попала в существующий проект \"{name}\" ({project}) – с тем же Ид {cid}",
		EN: "the build landed in the existing project \"{name}\" ({project}) – the one with the same Id {cid}",
	},
	{Key: "upload.landed-renamed",
		RU: "внимание: сборка попала в существующий проект {project} (тот же Ид {cid}) и переименовала его из \"{from}\" в \"{name}\"",
		EN: "warning: the build landed in the existing project {project} (same Id {cid}) and renamed it from \"{from}\" to \"{name}\"",
	},
	{Key: "upload.landed-unsure",
		RU: "сборка попала в проект \"{name}\" ({project}); новый ли он – неизвестно: список проектов до загрузки прочитать не удалось",
		EN: "the build landed in project \"{name}\" ({project}); whether it is new is unknown: the project list could not be read before the upload",
	},
	{Key: "upload.landed-unknown",
		RU: "платформа не назвала проект сборки, и в списках сборок проектов её не нашлось; проект можно найти в консоли по Ид из Проект.yaml",
		EN: "the platform named no project for the build, and no project's build list shows it; look the project up in the console by the Id of Project.yaml",
	},
}
