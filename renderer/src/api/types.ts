/**
 * The typed API as the renderer sees it: the contract's Commands, with the plan's commands and shapes
 * (planned.ts) layered on top until they land in main/contract.
 */
import type { CommandInput, CommandName, CommandOutput } from '../../../main/contract/api';
import type { PlannedCommandValues } from './planned';

type ContractValue<K extends CommandName> = Extract<CommandOutput<K>, { ok: true }>['value'];

export type ApiName = CommandName | keyof PlannedCommandValues;

export type ApiInput<K extends ApiName> = K extends keyof PlannedCommandValues
  ? PlannedCommandValues[K]['input']
  : K extends CommandName
    ? NonNullable<CommandInput<K>>
    : never;

export type ApiValue<K extends ApiName> = K extends keyof PlannedCommandValues
  ? PlannedCommandValues[K]['value']
  : K extends CommandName
    ? ContractValue<K>
    : never;
