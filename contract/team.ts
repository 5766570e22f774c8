import type { Localized } from './errors';

/**
 * A seller's organisation (the owner's account, its departments, positions, roles and members) and its operation
 * log: the console's calls and what they answer besides the catalogue's texts.
 */

export const TEAM_MESSAGES = {
  memberDisabled: { zh: '该账号已被停用，请联系主账号', en: 'This account is disabled; please contact the owner of your organisation', pt: 'Esta conta está desativada; fale com o titular da sua organização' },
  notFound: { zh: '记录不存在或不属于该组织', en: 'The record does not exist or belongs to another organisation', pt: 'O registro não existe ou pertence a outra organização' },
  grantExceeds: { zh: '不能授予超过自己所拥有的权限', en: 'You cannot grant more than you hold', pt: 'Você não pode conceder mais do que tem' },
  unknownPermission: { zh: '包含未知的权限', en: 'Contains an unknown permission', pt: 'Contém uma permissão desconhecida' },
  shopOutside: { zh: '包含不属于该组织的店铺', en: 'Contains a shop that does not belong to this organisation', pt: 'Contém uma loja que não pertence a esta organização' },
  shopNotHeld: { zh: '包含你无权查看的店铺', en: 'Contains a shop you may not see yourself', pt: 'Contém uma loja que você mesmo não pode ver' },
  deptHasChildren: { zh: '该部门下还有子部门，请先移走或删除', en: 'This department has sub-departments; move or delete them first', pt: 'Este departamento tem subdepartamentos; mova-os ou exclua-os antes' },
  deptHasMembers: { zh: '该部门下还有成员，请先为他们选择新部门', en: 'This department has members; choose their new department first', pt: 'Este departamento tem membros; escolha o novo departamento deles antes' },
  deptLoop: { zh: '上级部门不能是自身或其下级部门', en: 'A department cannot sit under itself or one of its sub-departments', pt: 'Um departamento não pode ficar sob si mesmo nem sob um subdepartamento seu' },
  roleInUse: { zh: '该角色仍有成员使用，请选择他们的新角色', en: 'Members still have this role; choose their new role', pt: 'Membros ainda têm este perfil; escolha o novo perfil deles' },
  roleNameTaken: { zh: '该角色名称已存在', en: 'A role of this name already exists', pt: 'Já existe um perfil com este nome' },
  ownerNotMember: { zh: '主账号不能作为成员修改或删除', en: 'The owner account cannot be changed or removed as a member', pt: 'A conta titular não pode ser alterada nem removida como membro' },
  memberLimit: { zh: '成员数已达套餐上限', en: 'The plan\'s member limit is reached', pt: 'O limite de membros do plano foi atingido' },
  orgRequired: { zh: '请选择要管理的组织', en: 'Choose the organisation to manage', pt: 'Escolha a organização a gerenciar' },
  selfChange: { zh: '不能修改自己的角色、店铺或状态', en: 'You cannot change your own role, shops or status', pt: 'Você não pode alterar o seu próprio perfil, lojas ou status' },
} as const satisfies Record<string, Localized>;
