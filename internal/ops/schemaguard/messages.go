package schemaguard

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(messages)
}

var messages = []i18n.Message{
	{Key: "schema.block-attribute", RU: "реквизит {name}", EN: "attribute {name}"},
	{Key: "schema.block-dimension", RU: "измерение {name}", EN: "dimension {name}"},
	{Key: "schema.block-resource", RU: "ресурс {name}", EN: "resource {name}"},
	{Key: "schema.block-tabular-attribute", RU: "реквизит {name} табличной части {part}", EN: "attribute {name} of tabular part {part}"},
	{Key: "schema.length-shrunk",
		RU: "{file}: {what} – длина уменьшается с {old} до {new}",
		EN: "{file}: {what} – the length shrinks from {old} to {new}",
	},
	{Key: "schema.type-changed",
		RU: "{file}: {what} – тип меняется с {old} на {new}",
		EN: "{file}: {what} – the type changes from {old} to {new}",
	},
	{Key: "schema.dimension-removed",
		RU: "{file}: измерение {name} удалено",
		EN: "{file}: dimension {name} is removed",
	},
	{Key: "schema.element-removed",
		RU: "{file}: элемент {element} ({kind}, Ид {old}) удалён вместе с данными",
		EN: "{file}: element {element} ({kind}, Ид {old}) is removed with its data",
	},
	{Key: "schema.element-replaced",
		RU: "{file}: файл теперь несёт Ид {new} вместо {old} – элемент {element} ({kind}) с данными заменяется новым",
		EN: "{file}: the file now carries Ид {new} instead of {old} – element {element} ({kind}) and its data are replaced by a new one",
	},
	{Key: "schema.attribute-removed",
		RU: "{file}: реквизит {name} удалён",
		EN: "{file}: attribute {name} is removed",
	},
	{Key: "schema.resource-removed",
		RU: "{file}: ресурс {name} удалён",
		EN: "{file}: resource {name} is removed",
	},
	{Key: "schema.tabular-part-removed",
		RU: "{file}: табличная часть {name} удалена",
		EN: "{file}: tabular part {name} is removed",
	},
	{Key: "schema.tabular-attribute-removed",
		RU: "{file}: реквизит {name} табличной части {part} удалён",
		EN: "{file}: attribute {name} of tabular part {part} is removed",
	},
}
