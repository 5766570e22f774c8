import type { AnyStateMachine } from 'xstate';
import { chatSendMachine } from './chatSendMachine';
import { chatWindowMachine } from './chatWindowMachine';
import { conversationMachine } from './conversationMachine';
import { collectionActionMachine } from './collectionActionMachine';
import { copyActionMachine } from './copyActionMachine';
import { createProductMachine } from './createProductMachine';
import { designerMachine } from './designerMachine';
import { designerPublishMachine } from './designerPublishMachine';
import { dialogMachine } from './dialogMachine';
import { featureUpdateMachine } from './featureUpdateMachine';
import { friendRequestMachine } from './friendRequestMachine';
import { messageBoxMachine } from './messageBoxMachine';
import { noticeMachine } from './noticeMachine';
import { orderActionsMachine } from './orderActionsMachine';
import { passwordResetMachine } from './passwordResetMachine';
import { productActionsMachine } from './productActionsMachine';
import { reuploadMachine } from './reuploadMachine';
import { promotionActionsMachine } from './promotionActionsMachine';
import { returnActionMachine } from './returnActionMachine';
import { listMachine } from './listMachine';
import { pictureUploadMachine } from './pictureUploadMachine';
import { pluginConnectMachine } from './pluginConnectMachine';
import { sessionMachine } from './sessionMachine';
import { settingsMachine } from './settingsMachine';
import { stepUpMachine } from './stepUpMachine';
import { tabMachine, tabsMachine } from './tabsMachine';
import { trackSearchMachine } from './trackSearchMachine';
import { fileImportMachine } from './fileImportMachine';
import { versionCheckMachine } from './versionCheckMachine';
import { watermarkJobMachine } from './watermarkJobMachine';

/**
 * Every machine of the app, by its id: what the flows page draws (from the definitions themselves, so a picture cannot
 * drift from the code) and how it knows which machine a running actor is. A new machine is added here, one line.
 */
export const MACHINES: Readonly<Record<string, AnyStateMachine>> = Object.fromEntries(
  [
    sessionMachine,
    passwordResetMachine,
    stepUpMachine,
    tabsMachine,
    tabMachine,
    settingsMachine,
    dialogMachine,
    messageBoxMachine,
    noticeMachine,
    featureUpdateMachine,
    versionCheckMachine,
    friendRequestMachine,
    chatWindowMachine,
    conversationMachine,
    chatSendMachine,
    listMachine,
    orderActionsMachine,
    copyActionMachine,
    createProductMachine,
    collectionActionMachine,
    pluginConnectMachine,
    pictureUploadMachine,
    productActionsMachine,
    reuploadMachine,
    returnActionMachine,
    designerMachine,
    designerPublishMachine,
    trackSearchMachine,
    promotionActionsMachine,
    fileImportMachine,
    watermarkJobMachine,
  ].map((machine: AnyStateMachine) => [machine.id, machine]),
);
