// A thin client of `elemctl lsp`: the server advertises elemctl.deploy,
// elemctl.probe, elemctl.verifyDeploy, elemctl.apps.* and the plugin
// commands, and vscode-languageclient registers each of them as a VS Code
// command (callable by any extension with vscode.commands.executeCommand).
// This extension only fills in what the workspace settings know (cwd,
// envFile, appId, projectDir, deploy flags), asks before a deploy, keeps a
// status-bar item, and registers the `elemctl dap` debugger. Progress,
// cancellation, diagnostics and messages come from the server.

import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, State, TransportKind } from 'vscode-languageclient/node';
import { registerElemctlDebugger } from '../../dap/vscode-adapter';
import { ElemctlBinary, ensureExecutable, resolveElemctl } from './binary';

/** The prefix of the server's command ids (initializationOptions.commandPrefix). */
const PREFIX = 'elemctl';

/** Commands whose argument takes the application setting. */
const APP_COMMANDS = new Set(['deploy', 'verifyDeploy', 'apps.get', 'apps.debug']);
/** Commands whose argument takes the project directory setting. */
const PROJECT_COMMANDS = new Set(['deploy', 'probe']);

type CommandArgument = {
  cwd?: string;
  envFile?: string;
  appId?: string;
  projectDir?: string;
  extraArgs?: string | string[];
  [key: string]: unknown;
};

let client: LanguageClient | undefined;
let status: vscode.StatusBarItem;
let running = 0;

/** The elemctl to run, as the settings say now (see binary.ts). */
function elemctlBinary(context: vscode.ExtensionContext): ElemctlBinary {
  const binary = resolveElemctl(vscode.workspace.getConfiguration('elemctl').get<string>('path'), context.extensionPath);
  ensureExecutable(binary);
  return binary;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  registerElemctlDebugger(context, () => elemctlBinary(context).command);

  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
  status.command = 'elemctl.deployWorkspace';
  context.subscriptions.push(status);
  showStatus('idle');
  status.show();

  context.subscriptions.push(
    vscode.commands.registerCommand('elemctl.deployWorkspace', () => runFromUI('deploy')),
    vscode.commands.registerCommand('elemctl.probeWorkspace', () => runFromUI('probe')),
    vscode.commands.registerCommand('elemctl.verifyWorkspace', () => runFromUI('verifyDeploy')),
    vscode.commands.registerCommand('elemctl.restartServer', async () => {
      await client?.restart();
    }),
  );

  const serverOptions: ServerOptions = {
    command: elemctlBinary(context).command,
    args: ['lsp'],
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    // Code lenses (Deploy, Probe, Verify) live on project descriptors.
    documentSelector: [
      { scheme: 'file', pattern: '**/Проект.yaml' },
      { scheme: 'file', pattern: '**/Project.yaml' },
    ],
    diagnosticCollectionName: 'elemctl',
    outputChannelName: 'elemctl',
    initializationOptions: { commandPrefix: PREFIX },
    middleware: {
      executeCommand: async (command, args, next) => {
        const id = command.startsWith(PREFIX + '.') ? command.slice(PREFIX.length + 1) : command;
        const arg = await completeArgument(id, (args[0] ?? {}) as CommandArgument);
        if (!arg) {
          return undefined; // the user cancelled
        }
        running++;
        showStatus('busy', id);
        try {
          const result = await next(command, [arg]);
          showStatus(result && result.ok === false ? 'failed' : 'idle');
          return result;
        } catch (err) {
          showStatus('failed');
          throw err;
        } finally {
          running--;
        }
      },
    },
  };
  client = new LanguageClient('elemctl', 'elemctl', serverOptions, clientOptions);
  context.subscriptions.push(client);
  client.onDidChangeState((e) => {
    if (e.newState === State.Running) {
      showStatus('idle');
    }
  });
  try {
    await client.start();
  } catch (err) {
    showStatus('missing');
    const message = err instanceof Error ? err.message : String(err);
    void vscode.window.showErrorMessage(vscode.l10n.t('elemctl lsp did not start: {0}. Put elemctl on PATH or set elemctl.path.', message));
  }
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}

/** runFromUI runs a server command for the active workspace folder. */
async function runFromUI(id: string): Promise<void> {
  if (!client || !client.isRunning()) {
    void vscode.window.showErrorMessage(vscode.l10n.t('elemctl lsp is not running.'));
    return;
  }
  try {
    // Through the registered command, so the middleware fills it in.
    await vscode.commands.executeCommand(`${PREFIX}.${id}`, {});
  } catch {
    // The server already showed the error and logged the details.
  }
}

/** The workspace folder a command is for: of its cwd, of the active editor, the only one, or picked. */
async function folderFor(cwd: string | undefined): Promise<vscode.WorkspaceFolder | undefined> {
  if (cwd) {
    return vscode.workspace.getWorkspaceFolder(vscode.Uri.file(cwd));
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const own = active && vscode.workspace.getWorkspaceFolder(active);
  if (own) {
    return own;
  }
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) {
    return folders[0];
  }
  return vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Which folder?') });
}

/**
 * completeArgument adds what the settings know to a command's argument;
 * keys the caller gave win. A deploy is confirmed first (undefined: the
 * user said no).
 */
async function completeArgument(id: string, given: CommandArgument): Promise<CommandArgument | undefined> {
  const arg: CommandArgument = { ...given };
  const folder = await folderFor(arg.cwd);
  if (!arg.cwd && folder) {
    arg.cwd = folder.uri.fsPath;
  }
  const cfg = vscode.workspace.getConfiguration('elemctl', folder?.uri);
  const setting = (key: string) => (cfg.get<string>(key) ?? '').trim();
  if (arg.envFile === undefined && setting('envFile')) {
    arg.envFile = setting('envFile');
  }
  if (APP_COMMANDS.has(id) && arg.appId === undefined && setting('appId')) {
    arg.appId = setting('appId');
  }
  if (PROJECT_COMMANDS.has(id) && arg.projectDir === undefined && setting('projectRoot')) {
    arg.projectDir = setting('projectRoot');
  }
  if (id === 'deploy' && arg.extraArgs === undefined && setting('deploy.extraArgs')) {
    arg.extraArgs = setting('deploy.extraArgs');
  }
  if (id === 'deploy' && cfg.get<boolean>('deploy.confirm', true)) {
    const target = arg.appId ? String(arg.appId) : vscode.l10n.t('ELEMENT_APP_ID of the .env file');
    const yes = vscode.l10n.t('Deploy');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Deploy {0} to {1}?', arg.projectDir ? String(arg.projectDir) : arg.cwd ?? '', target),
      { modal: true },
      yes,
    );
    if (answer !== yes) {
      return undefined;
    }
  }
  return arg;
}

function showStatus(state: 'idle' | 'busy' | 'failed' | 'missing', what?: string): void {
  if (running > 0 && state !== 'busy') {
    state = 'busy';
  }
  const version = client?.initializeResult?.serverInfo?.version;
  switch (state) {
    case 'busy':
      status.text = `$(sync~spin) elemctl: ${what ?? ''}`;
      status.tooltip = vscode.l10n.t('elemctl is working; the progress notification can cancel it');
      break;
    case 'failed':
      status.text = '$(error) elemctl';
      status.tooltip = vscode.l10n.t('The last elemctl command failed: see the notification and the elemctl output');
      break;
    case 'missing':
      status.text = '$(warning) elemctl: not found';
      status.tooltip = vscode.l10n.t('elemctl lsp did not start. Put elemctl on PATH or set elemctl.path.');
      break;
    default:
      status.text = '$(cloud-upload) elemctl' + (version ? ` ${version}` : '');
      status.tooltip = vscode.l10n.t('Deploy the project with elemctl');
  }
}
