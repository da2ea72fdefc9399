import { WRITE } from '@balcao/core/routes';
import type { UserTypeId } from '@balcao/core/userTypes';
import type { NamedResource } from './api.ts';

/** Texts and paths of a category-like resource. */
export type NamedConfig = {
  resource: NamedResource;
  basePath: string;
  title: string;
  newTitle: string;
  editTitle: string;
  addLabel: string;
  empty: string;
  notFound: string;
  created: string;
  edited: string;
  deleted: string;
  createError: string;
  editError: string;
  deleteQuestion: (name: string) => string;
  /** Who may write (the catalog's roles unless given). */
  write?: readonly UserTypeId[];
  /** The usage column and its sentence (products unless given). */
  countLabel?: string;
  countText?: (n: number) => string;
};

export const CATEGORY: NamedConfig = {
  resource: 'product-category',
  basePath: '/dashboard/product-category',
  title: 'Categorias',
  newTitle: 'Nova categoria',
  editTitle: 'Editar categoria',
  addLabel: 'Adicionar categoria',
  empty: 'Nenhuma categoria foi encontrada',
  notFound: 'Categoria não encontrada',
  created: 'Categoria criada com sucesso',
  edited: 'Categoria editada com sucesso',
  deleted: 'Categoria excluída',
  createError: 'Erro ao criar categoria',
  editError: 'Erro ao editar categoria',
  deleteQuestion: (name) => `Excluir a categoria "${name}"?`,
};

export const BRAND: NamedConfig = {
  resource: 'product-brand',
  basePath: '/dashboard/product-brand',
  title: 'Marcas',
  newTitle: 'Nova marca',
  editTitle: 'Editar marca',
  addLabel: 'Adicionar marca',
  empty: 'Nenhuma marca foi encontrada',
  notFound: 'Marca não encontrada',
  created: 'Marca criada com sucesso',
  edited: 'Marca editada com sucesso',
  deleted: 'Marca excluída',
  createError: 'Erro ao criar marca',
  editError: 'Erro ao editar marca',
  deleteQuestion: (name) => `Excluir a marca "${name}"?`,
};

export const CAMPAIGN_CATEGORY: NamedConfig = {
  resource: 'campaign-category',
  basePath: '/dashboard/campaign-category',
  title: 'Categorias de campanha',
  newTitle: 'Nova categoria de campanha',
  editTitle: 'Editar categoria de campanha',
  addLabel: 'Adicionar categoria',
  empty: 'Nenhuma categoria foi encontrada',
  notFound: 'Categoria de campanha não encontrada',
  created: 'Categoria criada com sucesso',
  edited: 'Categoria editada com sucesso',
  deleted: 'Categoria excluída',
  createError: 'Erro ao criar categoria',
  editError: 'Erro ao editar categoria',
  deleteQuestion: (name) => `Excluir a categoria "${name}"?`,
  write: WRITE.campaigns,
  countLabel: 'Campanhas',
  countText: (n) => (n === 1 ? '1 campanha usa este cadastro' : `${n} campanhas usam este cadastro`),
};
